/**
 * GET /metrics/checkout-conversion, answered from the daily rollup `checkout_metrics_daily` alone
 * (kept by triggers on `transactions`: see migration 20261124030000_subscription_metrics). A
 * checkout is an automatically-collected transaction created through the API or the web; it is
 * counted on the UTC day it was opened (created) and converts when its payment completes, counted
 * on that same opening day (a cohort: a day's rate never exceeds 1, and an old checkout paid today
 * raises its own day's rate).
 */
import type { CheckoutConversionMetrics, MetricsQuery } from "../../schemas/metrics.ts";
import {
  API_TIMESTAMP,
  checkLookback,
  daysBetween,
  rollupRows,
  updatedAt,
  zonedMidnight,
  zonedRollup,
  zoneOf,
} from "./range.ts";

interface Row {
  updated_at: string | null;
  day: string | null;
  count: number | null;
  completed_count: number | null;
}

const R = zonedRollup("r", "$1", "$2", "$3");

const SQL = `
  SELECT ${API_TIMESTAMP("m.updated_at")} AS updated_at, x.day, x.count, x.completed_count
  FROM (SELECT max(updated_at) AS updated_at FROM checkout_metrics_daily) m
  LEFT JOIN (
    SELECT to_char(${R.day}, 'YYYY-MM-DD') AS day, sum(r.count)::int AS count,
           sum(r.completed_count)::int AS completed_count
      FROM checkout_metrics_daily r WHERE ${R.inRange} GROUP BY 1
  ) x ON true`;

const RATE_DIGITS = 6n;
const RATE_SCALE = 10n ** RATE_DIGITS;

/** completed / count as a decimal string with six digits, rounded half up ("0.033113"); "0.000000" with no checkouts. */
export function conversionRate(completed: number, count: number): string {
  if (count <= 0) return "0.000000";
  const scaled = (BigInt(completed) * RATE_SCALE * 2n + BigInt(count)) / (2n * BigInt(count));
  const whole = scaled / RATE_SCALE;
  const fraction = (scaled % RATE_SCALE).toString().padStart(Number(RATE_DIGITS), "0");
  return `${whole}.${fraction}`;
}

export async function checkoutConversionMetrics(input: MetricsQuery): Promise<CheckoutConversionMetrics> {
  checkLookback("checkout_conversion", input.from, input.to);
  const zone = zoneOf(input);
  const rows = await rollupRows<Row>(SQL, [input.from, input.to, zone]);
  const byDay = new Map(rows.filter((row) => row.day !== null).map((row) => [row.day as string, row]));
  return {
    timeseries: daysBetween(input.from, input.to).map((day) => {
      const row = byDay.get(day);
      const count = row?.count ?? 0;
      const completed = row?.completed_count ?? 0;
      return {
        timestamp: zonedMidnight(day, zone),
        count,
        completed_count: completed,
        rate: conversionRate(completed, count),
      };
    }),
    starts_at: zonedMidnight(input.from, zone),
    ends_at: zonedMidnight(input.to, zone),
    interval: "day",
    updated_at: updatedAt(rows[0]?.updated_at),
  };
}
