import { ComingSoon } from "@/components/coming-soon";

export const metadata = { title: "Catalogue" };

export default function CataloguePage() {
  return (
    <ComingSoon title="Catalogue" description="Products, prices, discounts and discount groups will be managed here." />
  );
}
