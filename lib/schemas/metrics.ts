/**
 * Revenue metrics (spec: Revenue metrics, GET /metrics/revenue): the query parameters and the
 * response shape. Client-safe: the dashboard's range picker checks its dates with `fullDate`.
 */
import { z } from "zod";
import type { CurrencyCode } from "../billing/currencies.ts";
import { isTimeZone } from "./account-settings.ts";

const FULL_DATE_MESSAGE = "must be an RFC 3339 full-date, such as 2026-01-31";

/**
 * Longest range one request may ask for, in days: the API family's `max_lookback_exceeded`
 * (1096 days: three years, one of them a leap year). It also bounds the response's size.
 */
export const REVENUE_MAX_DAYS = 1096;

/** An RFC 3339 full-date (`2026-01-31`) that is a real calendar day; year 0000 does not exist. */
export const fullDate = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : FULL_DATE_MESSAGE) })
  .pipe(z.iso.date({ error: FULL_DATE_MESSAGE, abort: true }))
  .refine((value) => !value.startsWith("0000"), FULL_DATE_MESSAGE);

/**
 * `time_zone` (ours: the family's SDKs never send it): the IANA zone whose days the points are
 * (the dashboard sends the account's zone). Left out, days are UTC days, as the API family's.
 * With it, `from` and `to` are days of that zone and each point's timestamp is the instant its
 * day starts there (`2026-06-01T23:00:00.000000Z` for 2 June in Europe/London).
 */
export const metricsTimeZone = z
  .string()
  .max(64, "must be at most 64 characters")
  .refine(isTimeZone, "must be an IANA time zone, such as Europe/London or UTC");

export const revenueMetricsQuery = z
  .object({ from: fullDate, to: fullDate, time_zone: metricsTimeZone.optional() })
  .refine((query) => query.from <= query.to, {
    path: ["from"],
    message: "must be on or before `to`",
  });
export type RevenueMetricsQuery = z.infer<typeof revenueMetricsQuery>;

export interface RevenueDatapoint {
  /** 00:00 UTC of the day. */
  timestamp: string;
  /** Minor units of `currency_code`. */
  amount: string;
  /** Completed transactions that day. */
  count: number;
}

export interface RevenueMetrics {
  currency_code: CurrencyCode;
  timeseries: RevenueDatapoint[];
  starts_at: string;
  ends_at: string;
  interval: "day";
  updated_at: string;
}

/**
 * The query of every metric of the family (GET /metrics/monthly-recurring-revenue, …): the same
 * `from` and `to` as revenue, with the same longest range.
 */
export const metricsQuery = revenueMetricsQuery;
export type MetricsQuery = RevenueMetricsQuery;
export const METRICS_MAX_DAYS = REVENUE_MAX_DAYS;

/** The same day `months` calendar months earlier or later (31 March − 1 month → 28/29 February). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number);
  if (y === undefined || m === undefined || d === undefined) throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, lastDay));
  return first.toISOString().slice(0, 10);
}

/** A metrics answer: one point per day from `starts_at` (inclusive) to `ends_at` (exclusive). */
function timeseries<P extends z.ZodRawShape>(point: P) {
  return {
    timeseries: z.array(z.object({ timestamp: z.string(), ...point })),
    starts_at: z.string(),
    ends_at: z.string(),
    interval: z.literal("day"),
    updated_at: z.string(),
  };
}

/** GET /metrics/refunds, /monthly-recurring-revenue and /monthly-recurring-revenue-change. */
export const amountMetricsSchema = z.object({ currency_code: z.string(), ...timeseries({ amount: z.string() }) });
export type AmountMetrics = Omit<z.infer<typeof amountMetricsSchema>, "currency_code"> & {
  currency_code: CurrencyCode;
};

/** GET /metrics/revenue: the amount and the count of the transactions completed each day. */
export const revenueMetricsSchema = z.object({
  currency_code: z.string(),
  ...timeseries({ amount: z.string(), count: z.number().int() }),
});

/** GET /metrics/active-subscribers and /chargebacks. */
export const countMetricsSchema = z.object(timeseries({ count: z.number().int() }));
export type CountMetrics = z.infer<typeof countMetricsSchema>;

/** GET /metrics/checkout-conversion: `rate` = completed_count / count with six decimals. */
export const checkoutConversionMetricsSchema = z.object(
  timeseries({ count: z.number().int(), completed_count: z.number().int(), rate: z.string() }),
);
export type CheckoutConversionMetrics = z.infer<typeof checkoutConversionMetricsSchema>;

/**
 * GET /metrics/monthly-recurring-revenue-movements (ours, not the family's: what the dashboard's
 * MRR chart breaks down): per day, the MRR that came from new subscriptions, expansions and
 * reactivations and that went with contractions and churn (all positive amounts, in
 * `currency_code`), with the subscribers that started, came back and churned that day. The net of
 * a day (new + expansion + reactivation − contraction − churn) is that day's MRR minus the day
 * before's; `active_subscribers_at_start` is the count at the end of the day before `from`.
 */
export const mrrMovementsMetricsSchema = z.object({
  currency_code: z.string(),
  active_subscribers_at_start: z.number().int(),
  ...timeseries({
    new: z.string(),
    expansion: z.string(),
    contraction: z.string(),
    churn: z.string(),
    reactivation: z.string(),
    new_subscribers: z.number().int(),
    reactivated_subscribers: z.number().int(),
    churned_subscribers: z.number().int(),
  }),
});
export type MrrMovementsMetrics = Omit<z.infer<typeof mrrMovementsMetricsSchema>, "currency_code"> & {
  currency_code: CurrencyCode;
};
