/**
 * Proration of subscription changes, "to the minute" as the API family does it.
 *
 * The rate. For a change at `at` inside the billing period [starts_at, ends_at):
 *
 *     rate = (M(ends_at) − M(at)) / (M(ends_at) − M(starts_at)),   M(t) = ⌊t / 1 minute⌋
 *
 * i.e. the whole minutes left from the change's minute to the period's end, over the whole minutes
 * of the period, clamped to [0, 1], then rounded to 5 decimal places by the one rounding rule
 * (money.ts: halves away from zero). The rounded rate is the one shown (`proration.rate`, e.g.
 * "0.90513") AND the one used: a prorated line's amount is round(unit price × quantity × rate)
 * with exactly the rate on the line, so anyone can recompute an invoice from what it shows.
 *
 * The API family's own example: a change at 2024-05-13 10:36:57 in the period 2024-05-10 12:01:46 →
 * 2024-06-10 12:01:46 has 40405 of 44640 minutes left: 0.9051299… → "0.90513", the API family's
 * own answer to the digit. Flooring both ends to the minute matters: the exact time left, 40404.8
 * minutes, gives 0.90513 only by luck of rounding, and whole minutes counted from the change's
 * exact second (40404) give 0.90511.
 *
 * Lines. A change of items becomes, per price, a charge line for added or increased quantity and a
 * credit line for removed or reduced quantity (see itemChangeLines); the totals engine prices them
 * (totals.ts: `proration` and `credit` on an item). A credit line shows a negative quantity and
 * negative amounts on the transaction, as in the API family since 2024-03.
 */
import { invalidField } from "../errors.ts";
import { formatAmount, formatDecimal, type Minor, type Ratio, ratio, roundHalfAwayFromZero } from "./money.ts";
import { type BillingCycle, sameCycle } from "./subscription-dates.ts";

export interface Period {
  starts_at: Date;
  ends_at: Date;
}

/** Decimal places of a proration rate, on the wire and in the arithmetic. */
export const RATE_DECIMALS = 5;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
const MINUTE_MS = 60_000;

/** The whole minutes since the epoch of `date` (its minute, seconds dropped). */
function minuteOf(date: Date): bigint {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new RangeError("proration: invalid date");
  return BigInt(Math.floor(ms / MINUTE_MS));
}

/** Whole minutes of a period: M(ends_at) − M(starts_at). */
export function periodMinutes(period: Period): bigint {
  return minuteOf(period.ends_at) - minuteOf(period.starts_at);
}

function checkRate(rate: Ratio): void {
  const negative = rate.numerator !== 0n && rate.numerator < 0n !== rate.denominator < 0n;
  if (rate.denominator === 0n || negative) throw new RangeError("proration: a rate is a fraction from 0");
}

/** A rate rounded to RATE_DECIMALS places by the one rounding rule. Rates are never negative. */
export function roundRate(rate: Ratio): Ratio {
  checkRate(rate);
  return ratio(roundHalfAwayFromZero(rate.numerator * RATE_SCALE, rate.denominator), RATE_SCALE);
}

function checkPeriod(period: Period): bigint {
  const minutes = periodMinutes(period);
  if (minutes <= 0n) throw new RangeError("proration: the billing period must last at least a minute");
  return minutes;
}

/**
 * The share of `period` left at `at` (see the top of this file): 1 at or before the period's first
 * minute, 0 from its last minute on, rounded to RATE_DECIMALS places.
 */
export function prorationRate(period: Period, at: Date): Ratio {
  const total = checkPeriod(period);
  let remaining = minuteOf(period.ends_at) - minuteOf(at);
  if (remaining < 0n) remaining = 0n;
  if (remaining > total) remaining = total;
  return roundRate(ratio(remaining, total));
}

/**
 * The API's `proration.rate`: the rate with RATE_DECIMALS places at most, trailing zeros dropped
 * as the API family writes it ("0.90513", "0.5", "1").
 */
export function formatRate(rate: Ratio): string {
  return formatDecimal(roundRate(rate));
}

// ---------------------------------------------------------------------------------------------
// Modes

export const PRORATION_BILLING_MODES = [
  "prorated_immediately",
  "prorated_next_billing_period",
  "full_immediately",
  "full_next_billing_period",
  "do_not_bill",
] as const;
export type ProrationBillingMode = (typeof PRORATION_BILLING_MODES)[number];

/** Whether the mode bills now (an immediate transaction) rather than on the next renewal. */
export function billsImmediately(mode: ProrationBillingMode): boolean {
  return mode === "prorated_immediately" || mode === "full_immediately";
}

export interface SubscriptionChange {
  /** Items added, removed, or their quantities changed. */
  itemsChanged: boolean;
  /** The items' billing cycle changed (a frequency swap, e.g. monthly → annual): see billingCycleChanged. */
  cycleChanged: boolean;
  nextBilledAtChanged: boolean;
  trialing: boolean;
  /** A paused subscription takes item changes without billing only (the API family's rule). */
  paused?: boolean;
}

const FOR_CYCLE_CHANGE: readonly ProrationBillingMode[] = ["prorated_immediately", "full_immediately", "do_not_bill"];
const FOR_NEXT_BILLED_AT: readonly ProrationBillingMode[] = [
  "prorated_immediately",
  "prorated_next_billing_period",
  "do_not_bill",
];

/**
 * The proration billing modes a change allows, in the API's order (the API family's rules):
 * - items added, removed or re-quantified: all five;
 * - a billing-frequency swap: billed now or not at all (the new cycle starts at the change, so
 *   there is no "next billing period" of the old cycle to add it to);
 * - a new next_billed_at: prorated now, prorated on the next renewal, or not billed (a "full"
 *   price of a date change means nothing);
 * - trialing or paused: do_not_bill only (nothing is being billed yet, or any more).
 * Several changes at once allow the modes every one of them allows. No change: all five (the mode
 * does not matter).
 */
export function allowedModes(change: SubscriptionChange): ProrationBillingMode[] {
  if (change.trialing || change.paused) return ["do_not_bill"];
  return PRORATION_BILLING_MODES.filter(
    (mode) =>
      (!change.cycleChanged || FOR_CYCLE_CHANGE.includes(mode)) &&
      (!change.nextBilledAtChanged || FOR_NEXT_BILLED_AT.includes(mode)),
  );
}

// ---------------------------------------------------------------------------------------------
// Lines

export interface ItemQuantity {
  price_id: string;
  quantity: number;
  billing_cycle: BillingCycle | null;
}

export interface ProrationLine {
  price_id: string;
  /** Always ≥ 1; a credit line shows it negated on the transaction. */
  quantity: number;
  /** true: a negative line, crediting removed or reduced quantity. */
  credit: boolean;
  /** The share of the price billed or credited; null for the full_* modes: the whole price. */
  rate: Ratio | null;
  /**
   * true when the line bills a new billing cycle that starts at the change (after a billing-
   * frequency swap): its `billing_period` is the change → the change + the new cycle, not the rest
   * of the current period.
   */
  new_cycle: boolean;
}

const ONE = ratio(1n, 1n);

function checkItems(items: readonly ItemQuantity[], requestField: string | null): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const field = requestField ? `${requestField}[${index}]` : null;
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1) {
      if (field) throw invalidField(`${field}.quantity`, "must be a whole number of at least 1");
      throw new RangeError(`proration: quantity of ${item.price_id} must be a whole number of at least 1`);
    }
    if (seen.has(item.price_id)) {
      if (field) throw invalidField(`${field}.price_id`, `${item.price_id} appears more than once`);
      throw new RangeError(`proration: ${item.price_id} appears more than once`);
    }
    seen.add(item.price_id);
  });
}

/**
 * Whether the items' billing cycle changes: some recurring item after the change bills on a cycle
 * that some recurring item before it did not (monthly → annual). Items without a cycle (one-time
 * prices) are ignored.
 */
export function billingCycleChanged(before: readonly ItemQuantity[], after: readonly ItemQuantity[]): boolean {
  const old = before.flatMap((item) => (item.billing_cycle ? [item.billing_cycle] : []));
  const now = after.flatMap((item) => (item.billing_cycle ? [item.billing_cycle] : []));
  return now.some((cycle) => old.some((previous) => !sameCycle(cycle, previous)));
}

/**
 * The lines that bill an item change made at the moment whose remaining share of the current
 * period is `rate` (prorationRate), for `mode`:
 * - per price, an added or increased quantity is a charge line of the difference, a removed or
 *   reduced one a credit line of the difference (quantity positive, credit true), both at `rate`
 *   (prorated_*);
 * - full_*: charge lines at the whole price (rate null) and no credit lines: the API family bills
 *   "the full price of the change", and refunds nothing for what is taken away;
 * - do_not_bill: no lines.
 * Order: `after`'s order (a reduced quantity's credit line where the item stands), then the
 * removed items in `before`'s order.
 *
 * A billing-frequency swap (billingCycleChanged) starts a new billing cycle at the change: every
 * item after the change is charged for a whole new period (rate 1, or null for full_immediately,
 * `new_cycle` true), and, when prorated, every item before it is credited for the rest of the old
 * period at `rate`. The *_next_billing_period modes cannot bill it (there is no next period of the
 * old cycle): refused, naming proration_billing_mode.
 *
 * `after` is the request's items (a duplicate price or a quantity below 1 is refused naming
 * `items[i]`); `before` is the subscription's.
 */
export function itemChangeLines(
  before: readonly ItemQuantity[],
  after: readonly ItemQuantity[],
  mode: ProrationBillingMode,
  rate: Ratio,
): ProrationLine[] {
  checkItems(before, null);
  checkItems(after, "items");
  checkRate(rate);
  if (mode === "do_not_bill") return [];
  const full = mode === "full_immediately" || mode === "full_next_billing_period";
  const lineRate = full ? null : rate;

  if (billingCycleChanged(before, after)) {
    if (!billsImmediately(mode)) {
      throw invalidField(
        "proration_billing_mode",
        `cannot be ${mode} when the billing cycle changes: the new cycle starts now, so use prorated_immediately, full_immediately or do_not_bill`,
      );
    }
    const charges = after.map((item) => ({
      price_id: item.price_id,
      quantity: item.quantity,
      credit: false,
      rate: full ? null : ONE,
      new_cycle: true,
    }));
    const credits = full
      ? []
      : before.map((item) => ({
          price_id: item.price_id,
          quantity: item.quantity,
          credit: true,
          rate,
          new_cycle: false,
        }));
    return [...charges, ...credits];
  }

  const was = new Map(before.map((item) => [item.price_id, item.quantity]));
  const lines: ProrationLine[] = [];
  for (const item of after) {
    const difference = item.quantity - (was.get(item.price_id) ?? 0);
    if (difference > 0) {
      lines.push({ price_id: item.price_id, quantity: difference, credit: false, rate: lineRate, new_cycle: false });
    } else if (difference < 0 && !full) {
      lines.push({ price_id: item.price_id, quantity: -difference, credit: true, rate, new_cycle: false });
    }
  }
  if (!full) {
    const kept = new Set(after.map((item) => item.price_id));
    for (const item of before) {
      if (!kept.has(item.price_id)) {
        lines.push({ price_id: item.price_id, quantity: item.quantity, credit: true, rate, new_cycle: false });
      }
    }
  }
  return lines;
}

/**
 * The rate of moving the end of `period` (the next billing date) to `nextBilledAt`: the whole
 * minutes between the old and the new date over the period's whole minutes, rounded like every
 * rate. It may exceed 1 (a date moved later by more than a period).
 */
export function nextBilledAtChangeRate(period: Period, nextBilledAt: Date): Ratio {
  const total = checkPeriod(period);
  const moved = minuteOf(nextBilledAt) - minuteOf(period.ends_at);
  return roundRate(ratio(moved < 0n ? -moved : moved, total));
}

/**
 * The lines that bill moving the next billing date of a subscription with `items`, in the current
 * `period`, to `nextBilledAt`: a later date charges the extra time of every item (charge lines of
 * its whole quantity at nextBilledAtChangeRate), a sooner one credits the time given up (credit
 * lines); the same date, or do_not_bill, no lines. Their `billing_period` is the time between the
 * two dates (old → new when later, new → old when sooner). Only the modes of allowedModes for a
 * next_billed_at change are accepted; a full_* mode is refused naming proration_billing_mode.
 *
 * When the items change in the same request, bill the item change first, over the current period
 * (itemChangeLines), then this with the items after the change.
 */
export function nextBilledAtChangeLines(
  items: readonly ItemQuantity[],
  period: Period,
  nextBilledAt: Date,
  mode: ProrationBillingMode,
): ProrationLine[] {
  if (!FOR_NEXT_BILLED_AT.includes(mode)) {
    throw invalidField(
      "proration_billing_mode",
      `cannot be ${mode} when next_billed_at changes: use prorated_immediately, prorated_next_billing_period or do_not_bill`,
    );
  }
  checkItems(items, null);
  const rate = nextBilledAtChangeRate(period, nextBilledAt);
  if (mode === "do_not_bill" || rate.numerator === 0n) return [];
  const credit = minuteOf(nextBilledAt) < minuteOf(period.ends_at);
  return items.map((item) => ({ price_id: item.price_id, quantity: item.quantity, credit, rate, new_cycle: false }));
}

// ---------------------------------------------------------------------------------------------
// Update summary (the preview's `update_summary`)

export interface MoneyAmount {
  amount: string;
  currency_code: string;
}

export interface UpdateSummary {
  credit: MoneyAmount;
  charge: MoneyAmount;
  result: { action: "credit" | "charge"; amount: string; currency_code: string };
}

/**
 * The preview's `update_summary`, in the API family's shape (its OpenAPI example: credit "-4927",
 * charge "83765", result charge "78838"):
 * - `credit.amount`: the change's credits, NEGATIVE (or "0"): the total of its credit lines. A
 *   positive `credit` argument is taken as the size of the credit, so either sign works.
 * - `charge.amount`: the total of its charge lines (≥ 0).
 * - `result`: charge + credit; `action` "charge" when that is ≥ 0, else "credit"; `amount` is its
 *   size (never negative: the action says which way it goes).
 * Credits and charges are the change's own lines only: credit the customer already had on balance
 * is not part of the change (it shows in the transaction's `details.totals.credit`).
 */
export function updateSummary(charge: Minor, credit: Minor, currency: string): UpdateSummary {
  if (charge < 0n) throw new RangeError("updateSummary: the charge is never negative");
  const credits = credit > 0n ? -credit : credit;
  const result = charge + credits;
  return {
    credit: { amount: formatAmount(credits), currency_code: currency },
    charge: { amount: formatAmount(charge), currency_code: currency },
    result: {
      action: result < 0n ? "credit" : "charge",
      amount: formatAmount(result < 0n ? -result : result),
      currency_code: currency,
    },
  };
}

/**
 * updateSummary from priced lines (the `line_items` of totals.ts' output, or of several
 * transactions' together): lines with a positive total are charges, negative ones credits.
 */
export function updateSummaryFromLineItems(
  lineItems: readonly { totals: { total: string } }[],
  currency: string,
): UpdateSummary {
  let charge = 0n;
  let credit = 0n;
  for (const line of lineItems) {
    const total = BigInt(line.totals.total);
    if (total > 0n) charge += total;
    else credit += total;
  }
  return updateSummary(charge, credit, currency);
}
