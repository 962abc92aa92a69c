import { DiscountGroupsView } from "./discount-groups-view";

export const metadata = { title: "Discount groups" };

export default function DiscountGroupsPage() {
  return <DiscountGroupsView />;
}
