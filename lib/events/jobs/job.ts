/**
 * A background job's declaration (one file per job in this folder, listed in all.ts): what a
 * service needs to queue it. What the job does is its handler, registered by the worker
 * (lib/worker/tasks.ts), which sits above the services it calls: a service imports a declaration,
 * never the code that runs it.
 * - `id`: the queue's task name. SQL queues jobs by this name too (the notifications trigger of the
 *   migrations calls add_job('deliver_notification', ...)) and queued rows keep it: never rename one.
 * - `payload`: the zod schema of its payload, parsed before the handler runs, so a handler gets
 *   typed values and a malformed payload fails the job (the queue retries it, then gives up).
 * - `maxAttempts`: how often the queue tries a job whose handler throws (unset: the queue's 25).
 * - `schedule`: for a periodic job, its crontab time fields; graphile-worker runs each scheduled
 *   job once across all workers.
 * Jobs are queued inside the caller's transaction (queueJob), so a job exists exactly when the
 * change that needs it committed.
 */
import type { z } from "zod";
import { type Queryable, query, storableJson } from "../../db/sql.ts";

export interface Job<Schema extends z.ZodType> {
  readonly id: string;
  readonly payload: Schema;
  readonly maxAttempts?: number;
  readonly schedule?: string;
}

export function defineJob<Schema extends z.ZodType>(declaration: Job<Schema>): Job<Schema> {
  return declaration;
}

/**
 * Queues `job` with `payload` (call inside the transaction whose change needs it). `runAt`: not
 * before then (a past time: at once); `jobKey`: the queue's job key, so queuing the same key again
 * replaces the job still waiting.
 */
export async function queueJob<Schema extends z.ZodType>(
  on: Queryable,
  job: Job<Schema>,
  payload: z.input<Schema>,
  options: { runAt?: Date; jobKey?: string } = {},
): Promise<void> {
  await query(
    `SELECT graphile_worker.add_job($1, $2::json, max_attempts := $3::int,
       run_at := greatest(now(), $4::timestamptz), job_key := $5::text)`,
    [job.id, storableJson(payload), job.maxAttempts ?? null, options.runAt ?? null, options.jobKey ?? null],
    on,
  );
}
