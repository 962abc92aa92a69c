/**
 * Metrics for the dashboard: the react-query hooks over GET /api/metrics/*, the date ranges the page
 * offers, and the totals it shows (worked out from the API's strings, exactly, so that every number
 * on the page is the API's). The page shows ranges with both ends included ("1 to 31 January"); the
 * API's `to` is exclusive, so the day after the last one shown is sent.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { zoneDay } from "../billing/zoned-days.ts";
import {
  type AmountMetrics,
  addMonths,
  type CheckoutConversionMetrics,
  type CountMetrics,
  type MrrMovementsMetrics,
  REVENUE_MAX_DAYS,
  type RevenueMetrics,
} from "../schemas/metrics.ts";
import { api } from "./api.ts";
import type { EntityResponse } from "./hooks.ts";
import { useAccountSettings } from "./settings.ts";

export type { AmountMetrics, CheckoutConversionMetrics, CountMetrics, MrrMovementsMetrics, RevenueMetrics };
export { addMonths, REVENUE_MAX_DAYS };

/** The metrics the page reads, by path under /metrics/. */
export interface MetricsByPath {
  revenue: RevenueMetrics;
  "monthly-recurring-revenue": AmountMetrics;
  "monthly-recurring-revenue-change": AmountMetrics;
  "monthly-recurring-revenue-movements": MrrMovementsMetrics;
  "active-subscribers": CountMetrics;
  refunds: AmountMetrics;
  chargebacks: CountMetrics;
  "checkout-conversion": CheckoutConversionMetrics;
}
export type MetricPath = keyof MetricsByPath;

export const metricsKeys = {
  metric: (path: MetricPath, from: string, to: string) => ["metrics", path, from, to] as const,
  revenue: (from: string, to: string) => metricsKeys.metric("revenue", from, to),
};

/**
 * The account's time zone (Settings), whose days the dashboard counts: Home, Metrics and Reports.
 * Null while the settings load; UTC when they cannot be read.
 */
export function useAccountTimeZone(): string | null {
  const settings = useAccountSettings();
  if (settings.data) return settings.data.timezone || "UTC";
  return settings.isError ? "UTC" : null;
}

/** Today (YYYY-MM-DD) in zone `zone`. */
export function todayIn(zone: string, now = new Date()): string {
  return zoneDay(now, zone);
}

/**
 * A metric's points keyed by their day in `zone`: the API answers each point at the instant its day
 * starts in the zone asked (`2026-06-01T23:00:00Z` for 2 June in London); the page labels points
 * by `timestamp.slice(0, 10)`, so each becomes its day's `YYYY-MM-DDT00:00:00Z` here.
 */
function byZoneDay<T extends { timeseries: { timestamp: string }[] }>(data: T, zone: string): T {
  if (zone === "UTC") return data;
  const label = (timestamp: string) => `${zoneDay(new Date(timestamp), zone)}T00:00:00.000000Z`;
  return { ...data, timeseries: data.timeseries.map((point) => ({ ...point, timestamp: label(point.timestamp) })) };
}

/**
 * GET /metrics/{path} from `from` to `to` (API dates: `to` exclusive), in the days of the account's
 * time zone (`time_zone`: the API's own default is UTC days, as the API family's).
 */
export function useMetric<P extends MetricPath>(path: P, range: { from: string; to: string } | null) {
  const zone = useAccountTimeZone();
  return useQuery<MetricsByPath[P]>({
    queryKey: [...metricsKeys.metric(path, range?.from ?? "", range?.to ?? ""), zone],
    queryFn: async () => {
      const data = (
        await api<EntityResponse<MetricsByPath[P]>>(
          `/metrics/${path}?from=${encodeURIComponent(range?.from ?? "")}&to=${encodeURIComponent(range?.to ?? "")}&time_zone=${encodeURIComponent(zone ?? "UTC")}`,
        )
      ).data;
      return byZoneDay(data, zone ?? "UTC");
    },
    enabled: range !== null && zone !== null,
    // The previous range stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

/** Revenue per day from `from` to `to` (API dates: `to` exclusive). */
export function useRevenueMetrics(range: { from: string; to: string } | null) {
  return useMetric("revenue", range);
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a UTC day. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

export const RANGE_PRESETS = [
  { id: "7d", label: "Last 7 days" },
  { id: "30d", label: "Last 30 days" },
  { id: "90d", label: "Last 90 days" },
  { id: "12m", label: "Last 12 months" },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]["id"];

/** A range as the page shows it: both days included. */
export interface ShownRange {
  first: string;
  last: string;
}

/** A preset ending today (in the account's zone, the metrics' days): "last 7 days" is today and the 6 before. */
export function presetRange(preset: RangePreset, today: string): ShownRange {
  switch (preset) {
    case "7d":
      return { first: addDays(today, -6), last: today };
    case "30d":
      return { first: addDays(today, -29), last: today };
    case "90d":
      return { first: addDays(today, -89), last: today };
    case "12m":
      return { first: addDays(addMonths(today, -12), 1), last: today };
  }
}

/** The API's range for a shown one: `to` is the day after the last. */
export function apiRange(range: ShownRange): { from: string; to: string } {
  return { from: range.first, to: addDays(range.last, 1) };
}

const FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isDay(text: string): boolean {
  return FULL_DATE.test(text) && !text.startsWith("0000") && utcDay(new Date(`${text}T00:00:00Z`)) === text;
}

/** Why a custom range cannot be shown, per input (empty: it can). */
export function customRangeErrors(range: ShownRange): { first?: string; last?: string } {
  const errors: { first?: string; last?: string } = {};
  if (range.first === "") errors.first = "Enter a start date.";
  else if (!isDay(range.first)) errors.first = "Enter a valid date, such as 2026-01-31.";
  if (range.last === "") errors.last = "Enter an end date.";
  else if (!isDay(range.last)) errors.last = "Enter a valid date, such as 2026-01-31.";
  if (errors.first || errors.last) return errors;
  if (range.first > range.last) errors.last = "The end date must be on or after the start date.";
  else if (daysBetween(range.first, range.last) + 1 > REVENUE_MAX_DAYS) {
    errors.last = `Choose a range of at most ${REVENUE_MAX_DAYS} days.`;
  }
  return errors;
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The range's totals: revenue (exact, from the strings) and completed transactions. */
export function revenueTotals(metrics: RevenueMetrics): { amount: string; count: number } {
  let amount = 0n;
  let count = 0;
  for (const point of metrics.timeseries) {
    amount += BigInt(point.amount);
    count += point.count;
  }
  return { amount: amount.toString(), count };
}

/** Sum of amount strings, exactly. */
export function sumAmounts(amounts: readonly string[]): string {
  let total = 0n;
  for (const amount of amounts) total += BigInt(amount);
  return total.toString();
}

/** The last point's value of a series (the level at the end of the range), or null when empty. */
export function lastPoint<T>(series: { timeseries: T[] }): T | null {
  return series.timeseries.at(-1) ?? null;
}

/** `numerator / denominator` as a percentage with `digits` decimals ("2.5%"); "–" when undefined. */
export function percent(numerator: number | bigint, denominator: number | bigint, digits = 1): string {
  const d = BigInt(denominator);
  if (d <= 0n) return "–";
  const scale = 10n ** BigInt(digits + 2);
  const scaled = (BigInt(numerator) * scale * 2n + d) / (2n * d);
  const whole = scaled / 10n ** BigInt(digits);
  const fraction = (scaled % 10n ** BigInt(digits)).toString().padStart(digits, "0");
  return digits > 0 ? `${whole}.${fraction}%` : `${whole}%`;
}

/** The API's rate string ("0.033113") as a percentage with one decimal ("3.3%"). */
export function rateText(rate: string): string {
  const [whole = "", fraction = ""] = rate.split(".");
  const millionths = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, "0").slice(0, 6));
  return percent(millionths, 1_000_000n);
}

/** A day's MRR movements, without the day. */
export type MrrMovements = Omit<MrrMovementsMetrics["timeseries"][number], "timestamp">;

/**
 * The movements of a day the movements' series lacks: none. Sections pair the movements with
 * another metric's days, and while a new range loads one of them may still show the previous
 * range's points (placeholder data), with other days.
 */
export const NO_MOVEMENTS: MrrMovements = {
  new: "0",
  expansion: "0",
  contraction: "0",
  churn: "0",
  reactivation: "0",
  new_subscribers: 0,
  reactivated_subscribers: 0,
  churned_subscribers: 0,
};

export interface ChurnPoint {
  day: string;
  churned: number;
  /** Active subscribers at the start of the day (the end of the day before). */
  activeAtStart: number;
}

/**
 * Churn per day from the movements and the active subscribers: subscribers lost that day against
 * those active when it began. The range's churn rate is the subscribers lost in it against those
 * active when it began (`active_subscribers_at_start`).
 */
export function churnPoints(movements: MrrMovementsMetrics, active: CountMetrics): ChurnPoint[] {
  return movements.timeseries.map((point, i) => ({
    day: point.timestamp.slice(0, 10),
    churned: point.churned_subscribers,
    activeAtStart: i === 0 ? movements.active_subscribers_at_start : (active.timeseries[i - 1]?.count ?? 0),
  }));
}
