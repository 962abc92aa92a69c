import { SubscriptionsView } from "./subscriptions-view";

export const metadata = { title: "Subscriptions" };

export default function SubscriptionsPage() {
  return <SubscriptionsView />;
}
