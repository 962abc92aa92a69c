/**
 * What every metric shares (the API family's metrics: GET /metrics/*): the days of a range, the
 * longest range, timestamps as the API writes them, and `updated_at`.
 */
import type pg from "pg";
import { dayStart } from "../../billing/zoned-days.ts";
import { query } from "../../db/sql.ts";
import { ApiError } from "../../errors.ts";
import { METRICS_MAX_DAYS } from "../../schemas/metrics.ts";

const DAY_MS = 86_400_000;

/** `2026-01-31` → its 00:00 UTC as the API writes timestamps (microseconds, as everywhere). */
export function midnight(day: string): string {
  return `${day}T00:00:00.000000Z`;
}

/** Every day from `from` (inclusive) to `to` (exclusive), as `YYYY-MM-DD`. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`), end = Date.parse(`${to}T00:00:00Z`); t < end; t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

export function rangeDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The family's `max_lookback_exceeded` for a range longer than METRICS_MAX_DAYS. */
export function checkLookback(metric: string, from: string, to: string): void {
  if (rangeDays(from, to) > METRICS_MAX_DAYS) {
    throw new ApiError(
      "max_lookback_exceeded",
      `The requested date range exceeds the maximum lookback of ${METRICS_MAX_DAYS} days for metric '${metric}'.`,
    );
  }
}

/**
 * `updated_at`: the rollup's last change. Rollups are kept in the same statement or transaction as
 * each change, so they are always current: when nothing was ever counted, it is as fresh as this
 * request.
 */
export function updatedAt(last: string | null | undefined): string {
  return last ?? new Date().toISOString().replace(/Z$/, "000Z");
}

/** SQL: a timestamptz column as the API writes timestamps. */
export const API_TIMESTAMP = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

// ---------------------------------------------------------------------------------------------
// Days of a time zone (the `time_zone` query parameter, ours)
//
// Decision (issue 26, item 11): the API's metrics keep the API family's UTC days unless asked for
// another zone, so every client of the family reads what it expects; the dashboard asks for the
// account's zone (Settings → time zone), so Home, Metrics and Reports count the merchant's days.
// The rollups are kept per quarter-hour of the UTC day (migration metrics_quarter_hours): a day of
// any zone, a DST change's 23- or 25-hour day included, is exactly the quarter-hours it spans.

/** The zone the days of a metrics request are in ("UTC" when not asked). */
export function zoneOf(input: { time_zone?: string }): string {
  return input.time_zone ?? "UTC";
}

/**
 * SQL: the local day (in zone `zone`, a parameter) of the rollup row `alias`. `from` and `to` are
 * the range's parameters; `inRange` keeps the rows of [from, to) (its first test, on the UTC day,
 * lets the primary key's index find them: a zone is at most 14 hours from UTC).
 */
export function zonedRollup(alias: string, from: string, to: string, zone: string) {
  const day = `metrics_local_day(${alias}.day, ${alias}.slot, ${zone})`;
  return {
    day,
    inRange: `${alias}.day >= ${from}::date - 1 AND ${alias}.day < ${to}::date + 1 AND ${day} >= ${from}::date AND ${day} < ${to}::date`,
    before: `${alias}.day < ${from}::date + 1 AND ${day} < ${from}::date`,
  };
}

/**
 * The instant day `day` (YYYY-MM-DD) starts in zone `zone`, as the API writes timestamps:
 * `midnight(day)` for UTC, `2026-06-01T23:00:00.000000Z` for 2 June 2026 in Europe/London.
 */
export function zonedMidnight(day: string, zone: string): string {
  if (zone === "UTC") return midnight(day);
  return new Date(dayStart(day, zone)).toISOString().replace(/Z$/, "000Z");
}

/** PostgreSQL refused the zone (a name this runtime knows and its tz database does not). */
export function unknownZone(error: unknown): ApiError | null {
  if ((error as { code?: string })?.code !== "22023") return null;
  return new ApiError("invalid_field", "Invalid request.", {
    errors: [{ field: "time_zone", message: "must be an IANA time zone, such as Europe/London or UTC" }],
  });
}

/** Reads a rollup; a zone PostgreSQL does not know is the client's error (400 naming `time_zone`). */
export async function rollupRows<R extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<R[]> {
  try {
    return await query<R>(sql, values);
  } catch (error) {
    throw unknownZone(error) ?? error;
  }
}
