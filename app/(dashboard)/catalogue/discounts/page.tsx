import { DiscountsView } from "./discounts-view";

export const metadata = { title: "Discounts" };

export default async function DiscountsPage({
  searchParams,
}: {
  searchParams: Promise<{ discount_group_id?: string | string[] }>;
}) {
  const { discount_group_id } = await searchParams;
  const groupId =
    typeof discount_group_id === "string" && /^dsg_[a-z0-9]{26}$/.test(discount_group_id)
      ? discount_group_id
      : undefined;
  // Keyed by the group: moving between groups starts the list afresh.
  return <DiscountsView key={groupId ?? "all"} groupId={groupId} />;
}
