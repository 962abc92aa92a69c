import { NotificationDetail } from "./notification-detail";

export const metadata = { title: "Notification" };

export default async function NotificationPage({ params }: { params: Promise<{ notification_id: string }> }) {
  const { notification_id } = await params;
  return <NotificationDetail notificationId={notification_id} />;
}
