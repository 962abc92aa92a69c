/**
 * Revenue metrics for the dashboard: the react-query hook over GET /api/metrics/revenue, and the
 * date ranges the page offers. The page shows ranges with both ends included ("1 to 31 January");
 * the API's `to` is exclusive, so the day after the last one shown is sent.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { REVENUE_MAX_DAYS, type RevenueMetrics } from "../schemas/metrics.ts";
import { api } from "./api.ts";
import type { EntityResponse } from "./hooks.ts";

export type { RevenueMetrics };
export { REVENUE_MAX_DAYS };

export const metricsKeys = {
  revenue: (from: string, to: string) => ["metrics", "revenue", from, to] as const,
};

/** Revenue per day from `from` to `to` (API dates: `to` exclusive). */
export function useRevenueMetrics(range: { from: string; to: string } | null) {
  return useQuery<RevenueMetrics>({
    queryKey: metricsKeys.revenue(range?.from ?? "", range?.to ?? ""),
    queryFn: async () =>
      (
        await api<EntityResponse<RevenueMetrics>>(
          `/metrics/revenue?from=${encodeURIComponent(range?.from ?? "")}&to=${encodeURIComponent(range?.to ?? "")}`,
        )
      ).data,
    enabled: range !== null,
    // The previous range stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a UTC day. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** The same day `months` calendar months earlier or later (31 March − 1 month → 28/29 February). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, lastDay));
  return utcDay(first);
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

/** A preset ending today (UTC, the metrics' days): "last 7 days" is today and the 6 before. */
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
