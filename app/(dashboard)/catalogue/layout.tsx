import { SubNav } from "@/components/sub-nav";

const SECTIONS = [
  { href: "/catalogue/products", label: "Products" },
  { href: "/catalogue/discounts", label: "Discounts" },
  { href: "/catalogue/discount-groups", label: "Discount groups" },
  { href: "/catalogue/payment-links", label: "Payment links" },
] as const;

/** The catalogue's sections as tabs above each of its pages. */
export default function CatalogueLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl">
      <SubNav label="Catalogue" items={SECTIONS} />
      {children}
    </div>
  );
}
