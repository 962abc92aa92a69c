/**
 * Revenue metrics (spec: GET /metrics/revenue), answered from the rollup `revenue_daily` alone
 * (kept by triggers on `transactions`: see its migration), never from the transactions: one
 * indexed range read of at most a row per quarter-hour and currency, whatever the number of
 * transactions, summed into the days of the asked zone (UTC by default: range.ts).
 */
import { type CurrencyCode, isCurrencyCode } from "../../billing/currencies.ts";
import { type CurrencyAmount, convertSum } from "../../billing/exchange-rates.ts";
import { config } from "../../config.ts";
import type { RevenueMetrics, RevenueMetricsQuery } from "../../schemas/metrics.ts";
import { checkLookback, daysBetween, rollupRows, updatedAt, zonedMidnight, zonedRollup, zoneOf } from "./range.ts";

interface RollupRow {
  /** The rollup's last change (null: the rollup is empty). */
  updated_at: string | null;
  day: string | null;
  currency_code: string | null;
  amount: string | null;
  count: number | null;
}

const R = zonedRollup("r", "$1", "$2", "$3");

// One round trip: the rollup's last change, with the range's days (none: one row of nulls).
const REVENUE_SQL = `
  SELECT to_char(m.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at,
         x.day, x.currency_code, x.amount, x.count
  FROM (SELECT max(updated_at) AS updated_at FROM revenue_daily) m
  LEFT JOIN (
    SELECT to_char(${R.day}, 'YYYY-MM-DD') AS day, r.currency_code, sum(r.amount)::text AS amount,
           sum(r.count)::int AS count
      FROM revenue_daily r WHERE ${R.inRange} GROUP BY 1, 2
  ) x ON true`;

export async function revenueMetrics(
  input: RevenueMetricsQuery,
  primary: CurrencyCode = config.primaryCurrency,
): Promise<RevenueMetrics> {
  const { from, to } = input;
  checkLookback("revenue", from, to);
  const zone = zoneOf(input);
  const rows = await rollupRows<RollupRow>(REVENUE_SQL, [from, to, zone]);

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
      timestamp: zonedMidnight(day, zone),
      amount: entry ? convertSum(entry.amounts, primary).toString() : "0",
      count: entry?.count ?? 0,
    };
  });

  return {
    currency_code: primary,
    timeseries,
    starts_at: zonedMidnight(from, zone),
    ends_at: zonedMidnight(to, zone),
    interval: "day",
    updated_at: updatedAt(rows[0]?.updated_at),
  };
}
