/**
 * Subscription metrics: GET /metrics/monthly-recurring-revenue, /monthly-recurring-revenue-change,
 * /active-subscribers, and the dashboard's /monthly-recurring-revenue-movements. Answered from the
 * daily rollup `subscription_metrics_daily` alone (kept by triggers on subscriptions and their
 * items, in the writer's transaction: see migration 20261124030000_subscription_metrics for what
 * counts, the movements and the decisions), never from the subscriptions: one indexed read of at
 * most a row per day and currency, whatever the number of subscriptions.
 *
 * Decisions where the family is silent:
 * - A day's point is the value at the END of that UTC day (after all of its changes): today's
 *   point is the MRR now. The timestamp is the day's 00:00 UTC, as every metric of the family.
 *   With `time_zone` (ours), the days are that zone's and the timestamps their starts (range.ts).
 * - MRR change: a day's MRR minus the MRR at the end of the same day one calendar month earlier
 *   (31 March compares with 28/29 February), the family's "vs the same interval last month".
 * - Amounts are in the primary balance currency (BILLING_PRIMARY_CURRENCY), each currency's MRR
 *   converted at the current rate (lib/billing/exchange-rates.ts), as revenue is: the series never
 *   moves because rates did. The rollup keeps each currency's own amounts.
 */
import { type CurrencyCode, isCurrencyCode } from "../../billing/currencies.ts";
import { type CurrencyAmount, convertSum } from "../../billing/exchange-rates.ts";
import { config } from "../../config.ts";
import {
  type AmountMetrics,
  addMonths,
  type CountMetrics,
  type MetricsQuery,
  type MrrMovementsMetrics,
} from "../../schemas/metrics.ts";
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
  /** null: the sums of every day before the range. */
  day: string | null;
  currency_code: string | null;
  new_mrr: string | null;
  expansion_mrr: string | null;
  contraction_mrr: string | null;
  churn_mrr: string | null;
  reactivation_mrr: string | null;
  new_subscribers: number | null;
  reactivated_subscribers: number | null;
  churned_subscribers: number | null;
}

const COLUMNS = [
  "new_mrr",
  "expansion_mrr",
  "contraction_mrr",
  "churn_mrr",
  "reactivation_mrr",
  "new_subscribers",
  "reactivated_subscribers",
  "churned_subscribers",
] as const;

const R = zonedRollup("r", "$1", "$2", "$3");

// One round trip: the rollup's last change, the sums of every day before `from` per currency (the
// level the range starts from), and the range's days (in the asked zone: range.ts).
const ROLLUP_SQL = `
  SELECT ${API_TIMESTAMP("m.updated_at")} AS updated_at, x.day, x.currency_code,
         ${COLUMNS.map((c) => (c.endsWith("_mrr") ? `x.${c}::text AS ${c}` : `x.${c}::int AS ${c}`)).join(", ")}
  FROM (SELECT max(updated_at) AS updated_at FROM subscription_metrics_daily) m
  LEFT JOIN (
    SELECT NULL::text AS day, r.currency_code, ${COLUMNS.map((c) => `sum(r.${c}) AS ${c}`).join(", ")}
      FROM subscription_metrics_daily r WHERE ${R.before} GROUP BY r.currency_code
    UNION ALL
    SELECT to_char(${R.day}, 'YYYY-MM-DD'), r.currency_code, ${COLUMNS.map((c) => `sum(r.${c})`).join(", ")}
      FROM subscription_metrics_daily r WHERE ${R.inRange} GROUP BY 1, 2
  ) x ON true`;

interface DayMoves {
  amounts: Record<(typeof COLUMNS)[number] & `${string}_mrr`, CurrencyAmount[]>;
  newSubscribers: number;
  reactivatedSubscribers: number;
  churnedSubscribers: number;
}

interface Levels {
  updatedAt: string;
  /** Per day of [start, to): MRR per currency and active subscribers at the end of the day. */
  days: { day: string; mrr: Map<CurrencyCode, bigint>; subscribers: number; moves: DayMoves }[];
  subscribersBefore: number;
}

function emptyMoves(): DayMoves {
  return {
    amounts: { new_mrr: [], expansion_mrr: [], contraction_mrr: [], churn_mrr: [], reactivation_mrr: [] },
    newSubscribers: 0,
    reactivatedSubscribers: 0,
    churnedSubscribers: 0,
  };
}

const net = (row: Row): bigint =>
  BigInt(row.new_mrr ?? "0") +
  BigInt(row.expansion_mrr ?? "0") +
  BigInt(row.reactivation_mrr ?? "0") -
  BigInt(row.contraction_mrr ?? "0") -
  BigInt(row.churn_mrr ?? "0");

const subscriberDelta = (row: Row): number =>
  (row.new_subscribers ?? 0) + (row.reactivated_subscribers ?? 0) - (row.churned_subscribers ?? 0);

/** The end-of-day levels of every day from `start` (inclusive) to `to` (exclusive). */
async function levels(start: string, to: string, zone: string): Promise<Levels> {
  const rows = await rollupRows<Row>(ROLLUP_SQL, [start, to, zone]);
  const mrr = new Map<CurrencyCode, bigint>();
  let subscribers = 0;
  const byDay = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.currency_code === null) continue;
    // Currencies the service no longer accepts cannot be converted; none is ever stored.
    if (!isCurrencyCode(row.currency_code)) continue;
    if (row.day === null) {
      mrr.set(row.currency_code, (mrr.get(row.currency_code) ?? 0n) + net(row));
      subscribers += subscriberDelta(row);
    } else {
      const list = byDay.get(row.day) ?? [];
      list.push(row);
      byDay.set(row.day, list);
    }
  }
  const subscribersBefore = subscribers;
  const days = daysBetween(start, to).map((day) => {
    const moves = emptyMoves();
    for (const row of byDay.get(day) ?? []) {
      const currency = row.currency_code as CurrencyCode;
      mrr.set(currency, (mrr.get(currency) ?? 0n) + net(row));
      subscribers += subscriberDelta(row);
      for (const column of ["new_mrr", "expansion_mrr", "contraction_mrr", "churn_mrr", "reactivation_mrr"] as const) {
        moves.amounts[column].push({ amount: BigInt(row[column] ?? "0"), currency });
      }
      moves.newSubscribers += row.new_subscribers ?? 0;
      moves.reactivatedSubscribers += row.reactivated_subscribers ?? 0;
      moves.churnedSubscribers += row.churned_subscribers ?? 0;
    }
    return { day, mrr: new Map(mrr), subscribers, moves };
  });
  return { updatedAt: updatedAt(rows[0]?.updated_at), days, subscribersBefore };
}

function converted(mrr: Map<CurrencyCode, bigint>, primary: CurrencyCode): bigint {
  return convertSum(
    [...mrr].map(([currency, amount]) => ({ currency, amount })),
    primary,
  );
}

function envelope(input: MetricsQuery, updated: string) {
  return {
    starts_at: zonedMidnight(input.from, zoneOf(input)),
    ends_at: zonedMidnight(input.to, zoneOf(input)),
    interval: "day" as const,
    updated_at: updated,
  };
}

/** GET /metrics/monthly-recurring-revenue: MRR at the end of each day. */
export async function mrrMetrics(
  input: MetricsQuery,
  primary: CurrencyCode = config.primaryCurrency,
): Promise<AmountMetrics> {
  checkLookback("monthly_recurring_revenue", input.from, input.to);
  const data = await levels(input.from, input.to, zoneOf(input));
  const { starts_at, ends_at, interval, updated_at } = envelope(input, data.updatedAt);
  return {
    currency_code: primary,
    timeseries: data.days.map((d) => ({
      timestamp: zonedMidnight(d.day, zoneOf(input)),
      amount: converted(d.mrr, primary).toString(),
    })),
    starts_at,
    ends_at,
    interval,
    updated_at,
  };
}

/** GET /metrics/monthly-recurring-revenue-change: each day's MRR minus the same day's a month before. */
export async function mrrChangeMetrics(
  input: MetricsQuery,
  primary: CurrencyCode = config.primaryCurrency,
): Promise<AmountMetrics> {
  checkLookback("monthly_recurring_revenue_change", input.from, input.to);
  const start = input.from === input.to ? input.from : addMonths(input.from, -1);
  const data = await levels(start, input.to, zoneOf(input));
  const byDay = new Map(data.days.map((d) => [d.day, converted(d.mrr, primary)]));
  const { starts_at, ends_at, interval, updated_at } = envelope(input, data.updatedAt);
  return {
    currency_code: primary,
    timeseries: daysBetween(input.from, input.to).map((day) => ({
      timestamp: zonedMidnight(day, zoneOf(input)),
      amount: ((byDay.get(day) ?? 0n) - (byDay.get(addMonths(day, -1)) ?? 0n)).toString(),
    })),
    starts_at,
    ends_at,
    interval,
    updated_at,
  };
}

/** GET /metrics/active-subscribers: active subscribers at the end of each day (trialing excluded). */
export async function activeSubscribersMetrics(input: MetricsQuery): Promise<CountMetrics> {
  checkLookback("active_subscribers", input.from, input.to);
  const data = await levels(input.from, input.to, zoneOf(input));
  return {
    timeseries: data.days.map((d) => ({ timestamp: zonedMidnight(d.day, zoneOf(input)), count: d.subscribers })),
    ...envelope(input, data.updatedAt),
  };
}

/** GET /metrics/monthly-recurring-revenue-movements (the dashboard's breakdown; see lib/schemas/metrics.ts). */
export async function mrrMovementsMetrics(
  input: MetricsQuery,
  primary: CurrencyCode = config.primaryCurrency,
): Promise<MrrMovementsMetrics> {
  checkLookback("monthly_recurring_revenue_movements", input.from, input.to);
  const data = await levels(input.from, input.to, zoneOf(input));
  const { starts_at, ends_at, interval, updated_at } = envelope(input, data.updatedAt);
  return {
    currency_code: primary,
    active_subscribers_at_start: data.subscribersBefore,
    timeseries: data.days.map(({ day, moves }) => ({
      timestamp: zonedMidnight(day, zoneOf(input)),
      new: convertSum(moves.amounts.new_mrr, primary).toString(),
      expansion: convertSum(moves.amounts.expansion_mrr, primary).toString(),
      contraction: convertSum(moves.amounts.contraction_mrr, primary).toString(),
      churn: convertSum(moves.amounts.churn_mrr, primary).toString(),
      reactivation: convertSum(moves.amounts.reactivation_mrr, primary).toString(),
      new_subscribers: moves.newSubscribers,
      reactivated_subscribers: moves.reactivatedSubscribers,
      churned_subscribers: moves.churnedSubscribers,
    })),
    starts_at,
    ends_at,
    interval,
    updated_at,
  };
}
