/**
 * Revenue metrics (spec: GET /metrics/revenue), answered from the daily rollup `revenue_daily`
 * alone (kept by triggers on `transactions`: see its migration), never from the transactions: one
 * indexed range read of at most a row per day and currency, whatever the number of transactions.
 */
import { type CurrencyCode, isCurrencyCode } from "../../billing/currencies.ts";
import { type CurrencyAmount, convertSum } from "../../billing/exchange-rates.ts";
import { config } from "../../config.ts";
import { query } from "../../db/sql.ts";
import type { RevenueMetrics, RevenueMetricsQuery } from "../../schemas/metrics.ts";
import { checkLookback, daysBetween, midnight, updatedAt } from "./range.ts";

interface RollupRow {
  /** The rollup's last change (null: the rollup is empty). */
  updated_at: string | null;
  day: string | null;
  currency_code: string | null;
  amount: string | null;
  count: number | null;
}

// One round trip: the rollup's last change, with the range's rows (none: one row of nulls).
const REVENUE_SQL = `
  SELECT to_char(m.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at,
         to_char(r.day, 'YYYY-MM-DD') AS day, r.currency_code, r.amount::text AS amount, r.count
  FROM (SELECT max(updated_at) AS updated_at FROM revenue_daily) m
  LEFT JOIN revenue_daily r ON r.day >= $1::date AND r.day < $2::date`;

export async function revenueMetrics(
  input: RevenueMetricsQuery,
  primary: CurrencyCode = config.primaryCurrency,
): Promise<RevenueMetrics> {
  const { from, to } = input;
  checkLookback("revenue", from, to);
  const rows = await query<RollupRow>(REVENUE_SQL, [from, to]);

  const byDay = new Map<string, { amounts: CurrencyAmount[]; count: number }>();
  for (const row of rows) {
    if (row.day === null || row.currency_code === null) continue;
    // Currencies the service no longer accepts cannot be converted; none is ever stored.
    if (!isCurrencyCode(row.currency_code)) continue;
    const entry = byDay.get(row.day) ?? { amounts: [], count: 0 };
    entry.amounts.push({ amount: BigInt(row.amount ?? "0"), currency: row.currency_code });
    entry.count += row.count ?? 0;
    byDay.set(row.day, entry);
  }

  const timeseries = daysBetween(from, to).map((day) => {
    const entry = byDay.get(day);
    return {
      timestamp: midnight(day),
      amount: entry ? convertSum(entry.amounts, primary).toString() : "0",
      count: entry?.count ?? 0,
    };
  });

  return {
    currency_code: primary,
    timeseries,
    starts_at: midnight(from),
    ends_at: midnight(to),
    interval: "day",
    updated_at: updatedAt(rows[0]?.updated_at),
  };
}
