import type { Discount, ProductWithPrices } from "@/lib/dashboard/catalogue";
import { pluralize } from "@/lib/dashboard/display";
import { billingCycleText, formatMoney, percentText } from "@/lib/dashboard/money";

export const DISCOUNT_TYPE_LABELS: Record<Discount["type"], string> = {
  percentage: "Percentage",
  flat: "Flat amount",
  flat_per_seat: "Flat amount per seat",
};

/** "10%", "$5.00", "$5.00 per seat". */
export function discountAmountText(discount: Pick<Discount, "type" | "amount" | "currency_code">): string {
  if (discount.type === "percentage") return percentText(discount.amount);
  const money = discount.currency_code ? formatMoney(discount.amount, discount.currency_code) : discount.amount;
  return discount.type === "flat_per_seat" ? `${money} per seat` : money;
}

/** "3 / 100" or "3 / ∞". */
export function usageText(discount: Pick<Discount, "times_used" | "usage_limit">): string {
  return `${discount.times_used.toLocaleString()} / ${discount.usage_limit === null ? "∞" : discount.usage_limit.toLocaleString()}`;
}

/** "First payment only", "Every payment", "The first 3 payments". */
export function recurText(discount: Pick<Discount, "recur" | "maximum_recurring_intervals">): string {
  if (!discount.recur) return "First payment only";
  const n = discount.maximum_recurring_intervals;
  if (n === null) return "Every payment";
  return n === 1 ? "The first payment only" : `The first ${n} payments`;
}

export interface CatalogueNames {
  /** Product ID → name. */
  products: Map<string, string>;
  /** Price ID → "Product · description ($10.50 every month)". */
  prices: Map<string, { product: ProductWithPrices; label: string }>;
}

export function catalogueNames(products: readonly ProductWithPrices[]): CatalogueNames {
  const names: CatalogueNames = { products: new Map(), prices: new Map() };
  for (const product of products) {
    names.products.set(product.id, product.name);
    for (const price of product.prices) {
      names.prices.set(price.id, {
        product,
        label: `${product.name} · ${price.description} (${formatMoney(price.unit_price.amount, price.unit_price.currency_code)} ${billingCycleText(price.billing_cycle).toLowerCase()})`,
      });
    }
  }
  return names;
}

/** The name of a restricted ID, or the ID when the catalogue loaded does not have it. */
export function restrictionName(id: string, names: CatalogueNames | null): string {
  return names?.products.get(id) ?? names?.prices.get(id)?.label ?? id;
}

/** "All products", "Pro plan", "Pro plan and 2 more", or counts when names are unknown. */
export function restrictionSummary(restrictTo: string[] | null, names: CatalogueNames | null): string {
  if (!restrictTo || restrictTo.length === 0) return "All products";
  const known = restrictTo.map((id) => names?.products.get(id) ?? names?.prices.get(id)?.label ?? null);
  if (known.every((name) => name === null)) {
    const products = restrictTo.filter((id) => id.startsWith("pro_")).length;
    const prices = restrictTo.length - products;
    return [products && pluralize(products, "product"), prices && pluralize(prices, "price")]
      .filter(Boolean)
      .join(", ");
  }
  const first = known.find((name) => name !== null) ?? restrictTo[0] ?? "";
  return restrictTo.length === 1 ? first : `${first} and ${restrictTo.length - 1} more`;
}
