/**
 * Reconciliation (lib/payments/processor.ts rule 1): settles the payment attempts left in doubt —
 * a process killed between Stripe's answer and our commit, an answer lost on the network, Stripe
 * down for a while. Run every minute by the worker (lib/events/jobs/reconcile-payments.ts) and
 * callable directly (tests).
 *
 * Which: attempts unsettled for over a minute (`MIN_AGE_SECONDS`), oldest first, each at most once
 * per quarter of its age (one to sixty minutes: an attempt Stripe cannot answer for hours is not
 * asked every minute), `BATCH` per run, a bounded number at once.
 *
 * What, by kind:
 * - off_session (renewals, dunning, one-time charges): with its pi_ known, the PaymentIntent is
 *   read; without, the very same request is sent again (same idempotency key, same parameters, all
 *   from the attempt's row: lib/services/payments/off-session.ts) — Stripe replays its first answer,
 *   or, when the first request never arrived, makes the charge now, once. Then settled with the
 *   follow-up its `purpose` names (lib/services/subscriptions/charge-outcomes.ts), exactly as the
 *   process that recorded it would have.
 * - checkout (and setup) with a known pi_: read and settled when Stripe has an outcome (succeeded:
 *   the one completion; failed: the failure recorded once, the attempt left open for another try
 *   on the same page). Left to expire otherwise: after a day an attempt is canceled (the checkout
 *   then starts a new one), as is one that never got a pi_ (the page was opened, nothing sent).
 */
import { query } from "../../db/sql.ts";
import type { PaymentAttempt } from "../../payments/attempts.ts";
import { activeStripe, readIntent, type StripeContext } from "../../payments/stripe.ts";
import { followUpOf } from "../subscriptions/charge-outcomes.ts";
import { boundedEach, chargeAttempt, settleWithRetry } from "./off-session.ts";

export const MIN_AGE_SECONDS = 60;
export const EXPIRE_AFTER_SECONDS = 24 * 60 * 60;
const BATCH = 500;
const CONCURRENCY = 8;

export interface ReconcileReport {
  /** Attempts looked at. */
  examined: number;
  settled: number;
  /** Still in doubt (no answer again) or pending at Stripe (processing, requires_action). */
  open: number;
  expired: number;
}

const COLUMNS = `id::text, transaction_id, processor, processor_account, kind, status, amount::text AS amount, currency_code,
  payment_method_id, processor_customer, processor_payment, on_failure, purpose, error_code, error_message,
  to_char(settled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS settled_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at`;

/** The attempts due for a look now (see the top of this file). */
async function attemptsInDoubt(minAgeSeconds: number, limit: number): Promise<PaymentAttempt[]> {
  return query<PaymentAttempt>(
    `SELECT ${COLUMNS} FROM payment_attempts
      WHERE settled_at IS NULL AND status <> 'canceled' AND created_at < now() - $1 * interval '1 second'
        AND updated_at <= now() - greatest($1 * interval '1 second', least(interval '1 hour', (now() - created_at) / 4))
      ORDER BY created_at LIMIT $2`,
    [minAgeSeconds, limit],
  );
}

async function touch(id: string): Promise<void> {
  await query("UPDATE payment_attempts SET updated_at = now() WHERE id = $1", [id]);
}

async function expire(attempt: PaymentAttempt): Promise<boolean> {
  const age = (Date.now() - Date.parse(attempt.created_at)) / 1000;
  if (attempt.kind === "off_session" || age < EXPIRE_AFTER_SECONDS) return false;
  await query(
    "UPDATE payment_attempts SET status = 'canceled', updated_at = now() WHERE id = $1 AND settled_at IS NULL",
    [attempt.id],
  );
  return true;
}

/** Settles what Stripe knows of the attempts in doubt (see the top of this file). */
export async function reconcileAttempts(
  options: { minAgeSeconds?: number; limit?: number } = {},
): Promise<ReconcileReport> {
  const attempts = await attemptsInDoubt(options.minAgeSeconds ?? MIN_AGE_SECONDS, options.limit ?? BATCH);
  const report: ReconcileReport = { examined: attempts.length, settled: 0, open: 0, expired: 0 };
  if (attempts.length === 0) return report;
  let ctx: StripeContext | null;
  try {
    ctx = await activeStripe();
  } catch (error) {
    // Stripe unreachable: nothing can be learned now; try again next run.
    console.error(`[payments] reconciliation: Stripe unreachable: ${(error as Error).message}`);
    for (const attempt of attempts) await touch(attempt.id);
    return { ...report, open: attempts.length };
  }
  await boundedEach(attempts, CONCURRENCY, async (attempt) => {
    try {
      if (attempt.kind === "off_session") {
        const payment = await chargeAttempt(ctx, attempt);
        const settled = await settleWithRetry(attempt.id, payment, followUpOf(attempt));
        if (settled.outcome === "pending") {
          report.open++;
          await touch(attempt.id);
        } else report.settled++;
        return;
      }
      if (ctx && attempt.processor_payment?.startsWith("pi_") && attempt.processor_account === ctx.account) {
        const payment = await readIntent(ctx, attempt.processor_payment);
        if (payment.status === "succeeded" || payment.status === "failed" || payment.status === "canceled") {
          const settled = await settleWithRetry(attempt.id, payment, undefined);
          if (settled.outcome === "completed" || settled.outcome === "already_settled") {
            report.settled++;
            return;
          }
        }
      }
      if (await expire(attempt)) report.expired++;
      else {
        report.open++;
        await touch(attempt.id);
      }
    } catch (error) {
      report.open++;
      console.error(`[payments] reconciliation of attempt ${attempt.id}: ${(error as Error).message}`);
      await touch(attempt.id).catch(() => {});
    }
  });
  return report;
}
