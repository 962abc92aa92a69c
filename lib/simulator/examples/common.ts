/**
 * The webhook simulator's examples (this folder): realistic example entities for simulated events: one per entity kind of the
 * event catalogue, shaped exactly like the entity our API returns (customers, addresses, businesses,
 * products, prices, discounts, discount groups, API keys) or, for the kinds we do not store yet
 * (transactions, subscriptions, payment methods, adjustments, client-side tokens, payouts,
 * reports), like the API family's entity. Static, as in the API family: the same example every
 * time, with IDs of the right shape that name nothing in the account.
 *
 * Transactions and subscriptions move through states in a scenario, so they are built by
 * functions of a `Cast` (the customer, address, business, discount, payment method and items
 * taking part) and a state, so that every payload of a run tells one consistent story.
 *
 * This file: the examples' fixed IDs, start time and tax rate, and their calendar arithmetic.
 *
 * Client-safe, like every file of this folder: no Node or database imports (the schemas of
 * lib/schemas/simulation.ts import the scenario catalogue, which imports these modules).
 */

export type Json = Record<string, unknown>;

/** Fixed IDs of the examples: right prefix and shape, never an entity of the account. */
export const EXAMPLE_IDS = {
  customer: "ctm_01j82g1vg0n5hm89hzq11t6hae",
  address: "add_01j82g1wf80c13fd1v736yzfh0",
  business: "biz_01j82g1xegn7v3dy6szcn7x501",
  product: "pro_01j82g1ydrx17jj2vwypy8bswa",
  price: "pri_01j82g1zd030mfzr8rj8e888sh",
  discount: "dsc_01j82g20c85wh5d75k2kwe6k5m",
  discountGroup: "dsg_01j82g22aredp9nrr4e0ra54k4",
  transaction: "txn_01j82g23a0w5dp6pfaatae5cvg",
  transactionItem: "txnitm_01j82g2498r3g92b31f5046487",
  subscription: "sub_01j82g258g6vt5yq795krgmskq",
  adjustment: "adj_01j82g267rn1583znytfq1a7f5",
  adjustmentItem: "adjitm_01j82g277013xdf1fhgj1bs5x8",
  clientToken: "ctkn_01j82g2868211ccb2wb79xpm36",
  apiKey: "apikey_01j82g295gjzn1mxpf7qycmsat",
  paymentMethod: "paymtd_01j82g2a4rgsh3qrrjvwkbc104",
  report: "rep_01j82g2b40fnamp0gx2wgt73y1",
  // Payouts are identified by a bare ULID in the API family.
  payout: "01j82g2c38qn87t0mpqtqv2ec1",
} as const;

/** When the example story starts: the customer signs up at this moment. */
export const EXAMPLE_START = "2024-09-18T12:00:00.000000Z";

/** The tax rate of example totals (a flat 20%, as a string like the API family's `tax_rate`). */
export const EXAMPLE_TAX_RATE = "0.2";

// ---------------------------------------------------------------------------------------------
// Time

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

function parse(iso: string): Date {
  return new Date(iso.replace(/\.(\d{3})\d*Z$/, ".$1Z"));
}

/** RFC 3339 with microseconds, as every timestamp of the API. */
function format(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

export interface Duration {
  interval: "day" | "week" | "month" | "year";
  frequency: number;
}

/** `iso` plus `times` × `duration`, by the calendar: 31 January plus a month is 28/29 February. */
export function addDuration(iso: string, duration: Duration, times = 1): string {
  const date = parse(iso);
  const n = duration.frequency * times;
  if (duration.interval === "day" || duration.interval === "week") {
    const days = duration.interval === "week" ? n * 7 : n;
    return format(new Date(date.getTime() + days * 86_400_000));
  }
  const months = duration.interval === "year" ? n * 12 : n;
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return format(
    new Date(
      Date.UTC(
        year,
        month,
        day,
        date.getUTCHours(),
        date.getUTCMinutes(),
        date.getUTCSeconds(),
        date.getUTCMilliseconds(),
      ),
    ),
  );
}

/** `iso` plus `minutes` (for the moments between the steps of a scenario). */
export function later(iso: string, minutes: number): string {
  return format(new Date(parse(iso).getTime() + minutes * 60_000));
}

/** `base` with its last two characters replaced by the index `i` in base32 (line item IDs). */
export function indexedId(base: string, i: number): string {
  if (i === 0) return base;
  return `${base.slice(0, -2)}${ALPHABET[Math.floor(i / 32) % 32]}${ALPHABET[i % 32]}`;
}
