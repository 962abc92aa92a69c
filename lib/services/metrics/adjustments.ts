/**
 * GET /metrics/refunds and /metrics/chargebacks, answered from the daily rollup
 * `adjustment_metrics_daily` alone (kept by triggers on `adjustments`: see migration
 * 20261124030000_subscription_metrics for what counts and on which day).
 *
 * Refunds: the approved refunds' totals (what went back to the customer) per UTC day of approval,
 * converted to the primary balance currency at the current rate, as revenue. Chargebacks: how many
 * were received per day (warnings and reversals are other actions and never count). Chargebacks
 * come from Stripe's disputes (lib/services/payments/stripe-events.ts: a `chargeback` adjustment,
 * approved when the dispute opens); one whose dispute is won becomes `reversed` and is taken out of
 * its day again by the rollup's trigger. No API operation or simulation creates one.
 */
import { type CurrencyCode, isCurrencyCode } from "../../billing/currencies.ts";
import { type CurrencyAmount, convertSum } from "../../billing/exchange-rates.ts";
import { config } from "../../config.ts";
import type { AmountMetrics, CountMetrics, MetricsQuery } from "../../schemas/metrics.ts";
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
  currency_code: string | null;
  amount: string | null;
  count: number | null;
}

const R = zonedRollup("r", "$1", "$2", "$4");

const SQL = `
  SELECT ${API_TIMESTAMP("m.updated_at")} AS updated_at, x.day, x.currency_code, x.amount, x.count
  FROM (SELECT max(updated_at) AS updated_at FROM adjustment_metrics_daily WHERE action = $3) m
  LEFT JOIN (
    SELECT to_char(${R.day}, 'YYYY-MM-DD') AS day, r.currency_code, sum(r.amount)::text AS amount,
           sum(r.count)::int AS count
      FROM adjustment_metrics_daily r WHERE r.action = $3 AND ${R.inRange} GROUP BY 1, 2
  ) x ON true`;

async function perDay(input: MetricsQuery, action: "refund" | "chargeback") {
  const rows = await rollupRows<Row>(SQL, [input.from, input.to, action, zoneOf(input)]);
  const byDay = new Map<string, { amounts: CurrencyAmount[]; count: number }>();
  for (const row of rows) {
    if (row.day === null || row.currency_code === null || !isCurrencyCode(row.currency_code)) continue;
    const entry = byDay.get(row.day) ?? { amounts: [], count: 0 };
    entry.amounts.push({ amount: BigInt(row.amount ?? "0"), currency: row.currency_code });
    entry.count += row.count ?? 0;
    byDay.set(row.day, entry);
  }
  return { byDay, updated: updatedAt(rows[0]?.updated_at) };
}

export async function refundMetrics(
  input: MetricsQuery,
  primary: CurrencyCode = config.primaryCurrency,
): Promise<AmountMetrics> {
  checkLookback("refunds", input.from, input.to);
  const { byDay, updated } = await perDay(input, "refund");
  return {
    currency_code: primary,
    timeseries: daysBetween(input.from, input.to).map((day) => {
      const entry = byDay.get(day);
      return {
        timestamp: zonedMidnight(day, zoneOf(input)),
        amount: entry ? convertSum(entry.amounts, primary).toString() : "0",
      };
    }),
    starts_at: zonedMidnight(input.from, zoneOf(input)),
    ends_at: zonedMidnight(input.to, zoneOf(input)),
    interval: "day",
    updated_at: updated,
  };
}

export async function chargebackMetrics(input: MetricsQuery): Promise<CountMetrics> {
  checkLookback("chargebacks", input.from, input.to);
  const { byDay, updated } = await perDay(input, "chargeback");
  return {
    timeseries: daysBetween(input.from, input.to).map((day) => ({
      timestamp: zonedMidnight(day, zoneOf(input)),
      count: byDay.get(day)?.count ?? 0,
    })),
    starts_at: zonedMidnight(input.from, zoneOf(input)),
    ends_at: zonedMidnight(input.to, zoneOf(input)),
    interval: "day",
    updated_at: updated,
  };
}
