/**
 * Revenue metrics (spec: Revenue metrics, GET /metrics/revenue): the query parameters and the
 * response shape. Client-safe: the dashboard's range picker checks its dates with `fullDate`.
 */
import { z } from "zod";
import type { CurrencyCode } from "../billing/currencies.ts";

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

export const revenueMetricsQuery = z
  .object({ from: fullDate, to: fullDate })
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
