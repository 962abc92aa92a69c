/**
 * Subscriptions and transactions in business words (issue 26 item 13): titled and listed by the
 * customer's or business's name with what they buy and what it costs — "Sam Rivera · Lumen
 * Business × 5 · $245/mo" — with the email as the secondary line.
 *
 * Decisions:
 * - The name is the business's when the subscription or transaction has one (a company is billed),
 *   else the customer's name, else the email (then there is no secondary line).
 * - A subscription's amount is its recurring items' unit prices × quantities before tax and
 *   discount (what its plan costs; the page's "Next payment" has the exact next charge); a
 *   transaction's is its grand total.
 */
import { formatMoney } from "./money.ts";

export interface Party {
  customer?: { name: string | null; email: string } | null;
  business?: { name: string } | null;
}

/** The title's name and the secondary line (the email, or the person when a business is named). */
export function partyName(party: Party, fallback: string): { name: string; secondary: string | null } {
  const customer = party.customer ?? null;
  if (party.business?.name) {
    const person = customer ? (customer.name ? `${customer.name} · ${customer.email}` : customer.email) : null;
    return { name: party.business.name, secondary: person };
  }
  if (customer?.name) return { name: customer.name, secondary: customer.email };
  if (customer) return { name: customer.email, secondary: null };
  return { name: fallback, secondary: null };
}

type Cycle = { interval: string; frequency: number };
const SHORT: Record<string, string> = { day: "day", week: "wk", month: "mo", year: "yr" };

/** "/mo", "/yr", "/3 mo": a billing cycle after an amount. */
export function perCycle(cycle: Cycle): string {
  const unit = SHORT[cycle.interval] ?? cycle.interval;
  return cycle.frequency === 1 ? `/${unit}` : `/${cycle.frequency} ${unit}`;
}

interface ItemLike {
  quantity: number;
  product?: unknown;
  price?: unknown;
}

const productName = (item: ItemLike) => {
  const name = (item.product as { name?: unknown } | null)?.name;
  return typeof name === "string" && name ? name : "Item";
};

/** "Lumen Business × 5", "Lumen Business × 5 + 2 more". */
export function itemsText(items: readonly ItemLike[]): string {
  const [first, ...rest] = items;
  if (!first) return "No items";
  const head = `${productName(first)}${first.quantity > 1 ? ` × ${first.quantity}` : ""}`;
  return rest.length > 0 ? `${head} + ${rest.length} more` : head;
}

/** The items' unit prices × quantities in `currency` (minor units), or null when one has none. */
export function itemsAmount(items: readonly ItemLike[], currency: string): string | null {
  let total = 0n;
  for (const item of items) {
    const unit = (item.price as { unit_price?: { amount?: unknown; currency_code?: unknown } } | null)?.unit_price;
    if (!unit || typeof unit.amount !== "string" || unit.currency_code !== currency) return null;
    total += BigInt(unit.amount) * BigInt(item.quantity);
  }
  return total.toString();
}

/** "$245/mo": what the subscription's plan costs each cycle (see the top of this file). */
export function subscriptionAmountText(sub: {
  items: readonly ItemLike[];
  currency_code: string;
  billing_cycle: Cycle;
}): string | null {
  const amount = itemsAmount(sub.items, sub.currency_code);
  return amount === null ? null : `${formatMoney(amount, sub.currency_code)}${perCycle(sub.billing_cycle)}`;
}

/** "Sam Rivera · Lumen Business × 5 · $245/mo". */
export function subscriptionTitle(
  sub: { items: readonly ItemLike[]; currency_code: string; billing_cycle: Cycle },
  party: Party,
  fallback = "Subscription",
): string {
  const amount = subscriptionAmountText(sub);
  return [partyName(party, fallback).name, itemsText(sub.items), amount].filter(Boolean).join(" · ");
}

/** "Becker Design · Lumen Business × 5 · $617.85" (its line items name the products). */
export function transactionTitle(
  t: { currency_code: string; details: { totals: { grand_total: string }; line_items: readonly ItemLike[] } },
  party: Party,
  fallback = "Transaction",
): string {
  const lines = t.details.line_items.filter((line) => line.quantity > 0);
  return [
    partyName(party, fallback).name,
    lines.length > 0 ? itemsText(lines) : null,
    formatMoney(t.details.totals.grand_total, t.currency_code),
  ]
    .filter(Boolean)
    .join(" · ");
}
