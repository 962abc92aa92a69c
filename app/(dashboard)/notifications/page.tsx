import { ComingSoon } from "@/components/coming-soon";

export const metadata = { title: "Notifications" };

export default function NotificationsPage() {
  return (
    <ComingSoon
      title="Notifications"
      description="Notification destinations, the delivery log and the simulator will live here."
    />
  );
}
