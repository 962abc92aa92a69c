import { DiscountDetail } from "./discount-detail";

export const metadata = { title: "Discount" };

export default async function DiscountPage({ params }: { params: Promise<{ discount_id: string }> }) {
  const { discount_id } = await params;
  return <DiscountDetail discountId={discount_id} />;
}
