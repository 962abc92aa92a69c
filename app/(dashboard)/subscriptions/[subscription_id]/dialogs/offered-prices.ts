/**
 * The catalogue's prices the item and charge dialogs offer, and the switches to another billing
 * cycle: pure functions of the products and the dialog's rows.
 */
import type { ProductWithPrices } from "@/lib/dashboard/catalogue";
import { billingCycleText, formatMoney, periodText } from "@/lib/dashboard/money";
import type { Subscription } from "@/lib/dashboard/subscriptions";

export type Cycle = { interval: string; frequency: number };

/** A row of the items dialog: an item kept, changed, removed or added. */
export interface ItemRow {
  price_id: string;
  product_id: string;
  label: string;
  quantity: string;
  remove: boolean;
  isNew: boolean;
  cycle: Cycle;
}

export interface RecurringPrice {
  id: string;
  product_id: string;
  label: string;
  cycle: Cycle;
}

export const sameCycle = (a: Cycle, b: Cycle) => a.interval === b.interval && a.frequency === b.frequency;
export const cycleKey = (c: Cycle) => `${c.frequency}-${c.interval}`;

/** "monthly", "yearly", "every 3 months": a cycle as an adverb, for "Switch to yearly". */
export function cycleAdverb(c: Cycle): string {
  if (c.frequency === 1)
    return { day: "daily", week: "weekly", month: "monthly", year: "yearly" }[c.interval] ?? c.interval;
  return `every ${periodText(c as Parameters<typeof periodText>[0])}`;
}

/**
 * The active recurring prices in the subscription's currency, of every billing cycle (item 7:
 * monthly ↔ yearly), the subscription's own cycle first.
 */
export function recurringPrices(products: ProductWithPrices[], sub: Subscription): RecurringPrice[] {
  const out: RecurringPrice[] = [];
  for (const product of products) {
    for (const price of product.prices ?? []) {
      const cycle = price.billing_cycle;
      if (!cycle || price.status !== "active") continue;
      if (price.unit_price.currency_code !== sub.currency_code) continue;
      out.push({
        id: price.id,
        product_id: product.id,
        cycle,
        label: `${product.name} · ${price.name ?? price.description} · ${formatMoney(price.unit_price.amount, price.unit_price.currency_code)} ${billingCycleText(cycle).toLowerCase()}`,
      });
    }
  }
  const own = (p: RecurringPrice) => (sameCycle(p.cycle, sub.billing_cycle) ? 0 : 1);
  return out.sort((a, b) => own(a) - own(b));
}

/**
 * The switches to another billing cycle that the catalogue offers: for each other cycle, the
 * price of that cycle of every kept item's product (when each has exactly one), keeping the
 * quantities.
 */
export function cycleSwitches(rows: ItemRow[], prices: RecurringPrice[]): { cycle: Cycle; rows: ItemRow[] }[] {
  const kept = rows.filter((row) => !row.remove);
  const current = kept[0]?.cycle;
  if (!current) return [];
  const cycles = new Map<string, Cycle>();
  for (const price of prices) if (!sameCycle(price.cycle, current)) cycles.set(cycleKey(price.cycle), price.cycle);
  const out: { cycle: Cycle; rows: ItemRow[] }[] = [];
  for (const cycle of cycles.values()) {
    const replaced: ItemRow[] = [];
    for (const row of kept) {
      const matches = prices.filter((p) => p.product_id === row.product_id && sameCycle(p.cycle, cycle));
      const [match] = matches;
      if (matches.length !== 1 || !match) break;
      replaced.push({
        price_id: match.id,
        product_id: row.product_id,
        label: match.label,
        quantity: row.quantity,
        remove: false,
        isNew: true,
        cycle,
      });
    }
    if (replaced.length === kept.length) out.push({ cycle, rows: replaced });
  }
  return out;
}

/** The active one-time prices in `currency`, for a one-time charge. */
export function oneTimePrices(products: ProductWithPrices[], currency: string) {
  const out: { id: string; label: string }[] = [];
  for (const product of products) {
    for (const price of product.prices ?? []) {
      if (price.billing_cycle || price.status !== "active" || price.unit_price.currency_code !== currency) continue;
      out.push({
        id: price.id,
        label: `${product.name} · ${price.description} · ${formatMoney(price.unit_price.amount, price.unit_price.currency_code)}`,
      });
    }
  }
  return out;
}
