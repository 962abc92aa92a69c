/**
 * The job queue's contract (graphile-worker): task names and how work is queued from SQL, always
 * inside the caller's transaction so a job exists exactly when the change that needs it committed.
 * The tasks themselves are in lib/events/worker.ts.
 */
import type { Queryable } from "../db/sql.ts";
import { query } from "../db/sql.ts";

export const TASKS = {
  /** Payload `{ id, attempt }`: deliver notification `id`, expected to be its attempt number `attempt`. */
  deliverNotification: "deliver_notification",
  /** Payload `{ id }`: send the events of simulation run `id`, in order. */
  runSimulation: "run_simulation",
  /** Deletes notifications past their retention. Scheduled by the worker's crontab. */
  purgeNotifications: "purge_notifications",
  /** Moves manual invoices past their due date to past_due. Scheduled by the worker's crontab. */
  markPastDue: "mark_past_due",
  /** Runs the subscriptions' due renewals, scheduled changes and dunning (lib/services/subscriptions/engine.ts). */
  subscriptionsDue: "subscriptions_due",
} as const;

/**
 * SQL queuing the next delivery attempt of the notification row `alias` (columns id and
 * times_attempted, the attempts made so far), to run at `runAt` (SQL; NULL = now).
 */
export function queueDeliverySql(alias = "n", runAt = "NULL"): string {
  return `graphile_worker.add_job('${TASKS.deliverNotification}',
    json_build_object('id', ${alias}.id, 'attempt', ${alias}.times_attempted + 1),
    run_at := ${runAt}::timestamptz, max_attempts := ${MAX_JOB_ATTEMPTS})`;
}

/**
 * How often the queue itself retries a job that threw (database down, worker bug): these are not
 * delivery failures, which the delivery schedules itself (lib/events/delivery.ts).
 */
export const MAX_JOB_ATTEMPTS = 25;

/**
 * Queues delivery of every notification of a destination still waiting (not_attempted or
 * needs_retry): for a destination switched back on, whose pending work the worker left alone.
 */
export async function requeuePendingNotifications(on: Queryable, settingId: string): Promise<number> {
  const rows = await query<{ n: number }>(
    `WITH q AS (SELECT ${queueDeliverySql()} FROM notifications n
                WHERE n.notification_setting_id = $1 AND n.status IN ('not_attempted', 'needs_retry'))
     SELECT count(*)::int AS n FROM q`,
    [settingId],
    on,
  );
  return rows[0]?.n ?? 0;
}

/** Queues a simulation run (call inside the transaction that created it). */
export async function queueSimulationRun(on: Queryable, runId: string): Promise<void> {
  await query(
    `SELECT graphile_worker.add_job('${TASKS.runSimulation}', json_build_object('id', $1::text))`,
    [runId],
    on,
  );
}
