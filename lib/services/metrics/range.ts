/**
 * What every metric shares (the API family's metrics: GET /metrics/*): the days of a range, the
 * longest range, timestamps as the API writes them, and `updated_at`.
 */
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

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
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
