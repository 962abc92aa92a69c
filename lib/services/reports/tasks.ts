/**
 * The reports' background jobs (graphile-worker; registered in lib/events/worker.ts): generating
 * one report, and the expiry sweep on the worker's crontab. Kept here, beside the reports, rather
 * than in lib/events/queue.ts's TASKS, so the reports module owns its jobs.
 */
import type { Queryable } from "../../db/sql.ts";
import { query } from "../../db/sql.ts";

export const REPORT_TASKS = {
  /** Payload `{ id }`: generate report `id` (lib/services/reports/generate.ts). */
  generate: "generate_report",
  /** Marks ready reports past `expires_at` expired and deletes their files; gives up stuck ones. */
  expire: "expire_reports",
} as const;

/**
 * A generation is tried this many times (a worker crash or a lost database mid-way); after the
 * last failed try the report is marked `failed`.
 */
export const REPORT_JOB_ATTEMPTS = 3;

/** Queues the generation of report `id` (call inside the transaction that created it). */
export async function queueReportGeneration(on: Queryable, id: string): Promise<void> {
  await query(
    `SELECT graphile_worker.add_job('${REPORT_TASKS.generate}', json_build_object('id', $1::text),
       max_attempts := ${REPORT_JOB_ATTEMPTS})`,
    [id],
    on,
  );
}
