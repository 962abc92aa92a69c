/**
 * Delivers one notification (lib/events/delivery.ts). Queued set-based from SQL: by the trigger on
 * `events` that creates the notifications (the migrations name this job's id), by a failed attempt
 * for the next one, and when a destination is switched back on.
 */
import { z } from "zod";
import { type Queryable, query } from "../../db/sql.ts";
import { defineJob } from "./job.ts";

export const deliverNotificationJob = defineJob({
  id: "deliver_notification",
  /** Deliver notification `id`, expected to be its attempt number `attempt`. */
  payload: z.object({ id: z.string(), attempt: z.number().int() }),
  // How often the queue itself retries a job that threw (database down, worker bug): these are not
  // delivery failures, which the delivery schedules itself (lib/events/delivery.ts).
  maxAttempts: 25,
});

/**
 * SQL queuing the next delivery attempt of the notification row `alias` (columns id and
 * times_attempted, the attempts made so far), to run at `runAt` (SQL; NULL = now).
 */
export function queueDeliverySql(alias = "n", runAt = "NULL"): string {
  return `graphile_worker.add_job('${deliverNotificationJob.id}',
    json_build_object('id', ${alias}.id, 'attempt', ${alias}.times_attempted + 1),
    run_at := ${runAt}::timestamptz, max_attempts := ${deliverNotificationJob.maxAttempts})`;
}

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
