/**
 * Billing periods of a subscription, in UTC. Every period is computed from the subscription's
 * anchor (when its current run of periods began: the first billing, or the last activation or
 * resume that started a new billing period) by calendar arithmetic, never chained from the
 * previous period's end: period i starts at anchor + i × cycle. Chaining would drift: a monthly
 * subscription anchored on 31 January would renew on 28 February, then 28 March, 28 April...
 * From the anchor it renews on 28 (or 29) February, 31 March, 30 April, 31 May: the anchor's day,
 * or the last day of a shorter month. A yearly one anchored on 29 February renews on 28 February,
 * and on 29 February again in leap years.
 *
 * Periods are contiguous and half-open: [starts_at, ends_at), and ends_at of period i is
 * starts_at of period i + 1.
 */
import { addInterval, type CalendarInterval } from "./billing-dates.ts";

export interface BillingCycle {
  interval: CalendarInterval;
  /** A whole number from 1. */
  frequency: number;
}

export interface PeriodBounds {
  starts_at: Date;
  ends_at: Date;
}

const DAY_MS = 86_400_000;

function checkCycle(cycle: BillingCycle): void {
  if (!Number.isSafeInteger(cycle.frequency) || cycle.frequency < 1) {
    throw new RangeError(`billing cycle frequency must be a whole number from 1, got ${cycle.frequency}`);
  }
}

function checkIndex(index: number): void {
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new RangeError(`period index must be a whole number from 0, got ${index}`);
  }
}

/** When period `index` starts: anchor + index × cycle (index 0 is the anchor itself). */
export function periodStart(anchor: Date, cycle: BillingCycle, index: number): Date {
  checkCycle(cycle);
  checkIndex(index);
  return addInterval(anchor, cycle.interval, cycle.frequency * index);
}

/** Period `index` of a subscription anchored at `anchor` (0 = the period starting at the anchor). */
export function periodBounds(anchor: Date, cycle: BillingCycle, index: number): PeriodBounds {
  return { starts_at: periodStart(anchor, cycle, index), ends_at: periodStart(anchor, cycle, index + 1) };
}

/**
 * The index of the period containing `at` (at ≥ anchor; a period contains its start, not its end).
 * Constant time whatever the distance: the index is estimated from the whole days (day and week
 * cycles: exact) or calendar months (month and year cycles) between anchor and `at`, then moved
 * by a step or two so that start(index) ≤ at < start(index + 1).
 */
export function periodIndexAt(anchor: Date, cycle: BillingCycle, at: Date): number {
  checkCycle(cycle);
  const from = anchor.getTime();
  const to = at.getTime();
  if (Number.isNaN(from) || Number.isNaN(to)) throw new RangeError("periodIndexAt: invalid date");
  if (to < from) throw new RangeError("periodIndexAt: the date is before the anchor");

  let index: number;
  if (cycle.interval === "day" || cycle.interval === "week") {
    const days = cycle.frequency * (cycle.interval === "week" ? 7 : 1);
    index = Math.floor((to - from) / (days * DAY_MS));
  } else {
    const monthsPerPeriod = cycle.frequency * (cycle.interval === "year" ? 12 : 1);
    const months = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
    index = Math.max(0, Math.floor(months / monthsPerPeriod));
  }
  // The estimate is at most one period off (a shorter month, the time of day): adjust.
  while (index > 0 && periodStart(anchor, cycle, index).getTime() > to) index -= 1;
  while (periodStart(anchor, cycle, index + 1).getTime() <= to) index += 1;
  return index;
}

/** The period containing `at`, with its index (see periodIndexAt). */
export function periodAt(anchor: Date, cycle: BillingCycle, at: Date): PeriodBounds & { index: number } {
  const index = periodIndexAt(anchor, cycle, at);
  return { index, ...periodBounds(anchor, cycle, index) };
}

/** Whether two billing cycles are the same (1 year and 12 months are different cycles, as in the API). */
export function sameCycle(a: BillingCycle, b: BillingCycle): boolean {
  return a.interval === b.interval && a.frequency === b.frequency;
}
