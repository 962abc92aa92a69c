/**
 * One delivery attempt of a notification: post its payload, signed, to its destination, then in
 * ONE statement record the attempt (log row), move the notification (delivered, needs_retry or
 * failed) and, for a retry, queue the next attempt at its time. Being one statement, a crash can
 * never leave an attempt half recorded; a crash before it leaves the job locked, and the worker's
 * sweep hands it to another worker, which attempts again (at-least-once delivery).
 *
 * Jobs carry the attempt number they are for: a job whose attempt was already recorded (a
 * duplicate or a late one) does nothing, so replays of the same job never double-count.
 */
import { config } from "../config.ts";
import { query } from "../db/sql.ts";
import { newId } from "../ids.ts";
import { queueDeliverySql } from "./jobs/deliver-notification.ts";
import { type SendOutcome, sendSigned } from "./send.ts";

export type NotificationStatus = "not_attempted" | "needs_retry" | "delivered" | "failed";

export interface DeliveryOptions {
  /** The clock; tests move it. */
  now?: Date;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Delays before each retry; config.webhooks.retrySchedule by default. */
  schedule?: number[];
  timeoutMs?: number;
  /**
   * The email channel: sends an email destination's notification (lib/services/emails, above this
   * layer, passes it: lib/services/notification-delivery.ts). Without it such a notification fails
   * its attempt with an error, which the queue retries.
   */
  sendEmail?: (notificationId: string, now: Date) => Promise<SendOutcome>;
}

export type DeliveryResult =
  | { done: "delivered" | "needs_retry" | "failed"; outcome: SendOutcome; retryAt: Date | null }
  | { done: "skipped"; reason: "missing" | "final" | "stale" | "inactive" };

/** Each retry's delay varies by ±10%, so retries of many notifications do not arrive in lockstep. */
export const JITTER = 0.1;

/**
 * When attempt number `attempt` (1 = the first) has failed: the time of the next one, or null when
 * the schedule is used up and the notification has failed.
 */
export function nextRetryAt(
  attempt: number,
  now: Date,
  schedule: readonly number[] = config.webhooks.retrySchedule,
  random: () => number = Math.random,
): Date | null {
  const delay = schedule[attempt - 1];
  if (delay === undefined) return null;
  const jittered = delay * (1 - JITTER + 2 * JITTER * random());
  return new Date(now.getTime() + Math.round(jittered));
}

interface Target {
  /** The destination's type: `url` (a webhook) or `email` (lib/services/emails/notification-emails.ts). */
  type: string;
  body: string;
  status: NotificationStatus;
  times_attempted: number;
  destination: string;
  endpoint_secret_key: string;
  active: boolean;
}

export async function deliverNotification(
  id: string,
  attempt: number,
  options: DeliveryOptions = {},
): Promise<DeliveryResult> {
  const [target] = await query<Target>(
    `SELECT s.type, n.payload::text AS body, n.status, n.times_attempted, s.destination, s.endpoint_secret_key, s.active
     FROM notifications n JOIN notification_settings s ON s.id = n.notification_setting_id
     WHERE n.id = $1`,
    [id],
  );
  if (!target) return { done: "skipped", reason: "missing" };
  if (target.status === "delivered" || target.status === "failed") return { done: "skipped", reason: "final" };
  if (target.times_attempted !== attempt - 1) return { done: "skipped", reason: "stale" };
  // An inactive destination's notifications wait; switching it back on queues them again.
  if (!target.active) return { done: "skipped", reason: "inactive" };

  const now = options.now ?? new Date();
  // An email destination's attempt sends its email; its outcome is recorded below as a webhook's is.
  if (target.type === "email" && !options.sendEmail) throw new Error(`notification ${id}: no email channel given`);
  const outcome =
    target.type === "email" && options.sendEmail
      ? await options.sendEmail(id, now)
      : await sendSigned(target.destination, target.endpoint_secret_key, target.body, {
          now,
          timeoutMs: options.timeoutMs,
        });
  const retryAt = outcome.ok ? null : nextRetryAt(attempt, now, options.schedule, options.random);
  const status: NotificationStatus = outcome.ok ? "delivered" : retryAt ? "needs_retry" : "failed";
  await query(
    `WITH n AS (
       UPDATE notifications SET status = $2::text, times_attempted = $3::int, last_attempt_at = $4::timestamptz,
              delivered_at = CASE WHEN $2::text = 'delivered' THEN $4::timestamptz END, retry_at = $5::timestamptz
       WHERE id = $1 AND times_attempted = $3::int - 1
       RETURNING id, times_attempted),
     l AS (
       INSERT INTO notification_logs
         (id, notification_id, response_code, response_content_type, response_body, duration_ms, error, attempted_at)
       SELECT $6, n.id, $7::int, $8::text, $9::text, $10::int, $11::text, $4::timestamptz FROM n),
     q AS (SELECT ${queueDeliverySql("n", "$5")} FROM n WHERE $5::timestamptz IS NOT NULL)
     SELECT (SELECT count(*) FROM q) AS queued`,
    [
      id,
      status,
      attempt,
      now,
      retryAt,
      newId("ntflog"),
      outcome.statusCode,
      outcome.contentType,
      outcome.body,
      outcome.durationMs,
      outcome.error,
    ],
  );
  return { done: status, outcome, retryAt };
}

/** Deletes notifications (and their logs) past the retention period. Returns how many. */
export async function purgeNotifications(now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - config.webhooks.retentionDays * 86_400_000);
  const rows = await query<{ n: number }>(
    "WITH d AS (DELETE FROM notifications WHERE created_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM d",
    [cutoff],
  );
  return rows[0]?.n ?? 0;
}
