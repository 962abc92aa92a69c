import { ComingSoon } from "@/components/coming-soon";

export const metadata = { title: "Subscriptions" };

export default function SubscriptionsPage() {
  return (
    <ComingSoon title="Subscriptions" description="Subscriptions and their scheduled changes will be managed here." />
  );
}
