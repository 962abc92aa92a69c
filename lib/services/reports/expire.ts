/**
 * The expiry sweep (the worker's `expire_reports` cron, every 10 minutes): a ready report past its
 * `expires_at` becomes `expired` and its file (chunks) is deleted; a report still pending
 * PENDING_TIMEOUT_HOURS after it was created (its job lost) becomes `failed`. Each change emits
 * `report.updated`. Rows being generated are locked by their job and skipped (SKIP LOCKED).
 */

import { REPORT } from "../../db/entities/report.ts";
import { query, sqlTransaction, updateJson } from "../../db/sql.ts";

/** A report still pending this long after it was created is given up: marked `failed`. */
export const PENDING_TIMEOUT_HOURS = 6;

const BATCH = 100;

async function sweep(selectSql: string, status: "expired" | "failed", deleteFiles: boolean): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await sqlTransaction(async (client) => {
      const rows = await query<{ id: string }>(selectSql, [BATCH], client);
      for (const { id } of rows) {
        await updateJson(REPORT, { sql: "t.id = $1", values: [id] }, { status }, "report.updated", client);
      }
      if (deleteFiles && rows.length > 0) {
        await query("DELETE FROM report_chunks WHERE report_id = ANY($1::text[])", [rows.map((r) => r.id)], client);
      }
      return rows.length;
    });
    total += done;
    if (done < BATCH) return total;
  }
}

export async function expireReports(): Promise<{ expired: number; failed: number }> {
  const expired = await sweep(
    `SELECT id FROM reports WHERE status = 'ready' AND expires_at <= now()
     ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
    "expired",
    true,
  );
  const failed = await sweep(
    `SELECT id FROM reports WHERE status = 'pending' AND created_at < now() - interval '${PENDING_TIMEOUT_HOURS} hours'
     ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
    "failed",
    true,
  );
  return { expired, failed };
}
