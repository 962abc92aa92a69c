/**
 * What the subscription actions of the API (pause, resume, cancel, activate) share: one database
 * transaction holding the subscription's row lock, the subscription's own clock as "now", the one
 * state machine's refusals (lib/billing/subscription-states.ts) as API errors, and the answer
 * rendered from the rows as that transaction leaves them.
 *
 * Before it acts, an operation lets the engine catch the subscription up to its "now" (a renewal or
 * scheduled change that fell due a moment ago and that the worker's sweep has not run yet): the
 * request then sees the subscription as it is, not as it was. That catch-up is the engine's own
 * work in its own transactions (lib/services/subscriptions/engine.ts runDue); the operation itself
 * is still one transaction, all or nothing.
 */
import type pg from "pg";
import type { Refusal } from "../../billing/subscription-states.ts";
import { pool } from "../../db/connection.ts";
import { query, type RawJson, sqlTransaction, storableJson } from "../../db/sql.ts";
import { ApiError, type ErrorCode, invalidField } from "../../errors.ts";
import type { Subscription } from "../../schemas/subscription.ts";
import { subscriptionNow } from "./billing.ts";
import {
  billingScope,
  DECLINED_CHANGE,
  purposeOf,
  sealChangeAttempts,
  snapshotForOperation,
  withOperationContext,
} from "./charge-outcomes.ts";
import { runDue } from "./engine.ts";
import {
  emitSubscriptionEvents,
  lockSubscription,
  readSubscription,
  type SubscriptionRow,
  subscriptionJson,
} from "./store.ts";

export type Operation = (client: pg.PoolClient, sub: SubscriptionRow, now: Date) => Promise<void>;

/** Runs `operation` on subscription `id` (see the top of this file); answers the subscription. */
export async function subscriptionOperation(id: string, operation: Operation): Promise<RawJson<Subscription>> {
  const before = await readSubscription(pool(), id);
  await runDue(id, subscriptionNow(before));
  const { result, settled } = await billingScope(() =>
    withOperationContext(() =>
      sqlTransaction(async (client) => {
        const sub = await lockSubscription(client, id);
        await snapshotForOperation(client, sub);
        await operation(client, sub, subscriptionNow(sub));
        await sealChangeAttempts(client, id);
        return subscriptionJson(client, id);
      }),
    ),
  );
  if (settled.length === 0) return result;
  // A charge through Stripe was made after the commit and settled: a prevent_change decline undid
  // the change (charge-outcomes.ts) and answers as a sandbox decline does; otherwise the answer is
  // the subscription as the settlement left it.
  for (const { attempt, settled: done, payment } of settled) {
    const purpose = purposeOf(attempt);
    if (done?.outcome === "failed" && purpose?.kind === "change") {
      const reason = payment?.error?.message;
      throw new ApiError(
        "subscription_payment_declined",
        `${DECLINED_CHANGE[purpose.operation]}${reason ? ` Stripe: ${reason}` : ""}`,
      );
    }
  }
  return subscriptionJson(pool(), id);
}

/** Throws the state machine's refusal, if any, as the API's 400 with its code. */
export function refuse(found: Refusal | null): void {
  // Every refusal code is in the error catalogue (lib/errors.ts): tsc holds the two together.
  const code: ErrorCode | undefined = found?.code;
  if (found && code) throw new ApiError(code, found.detail);
}

/**
 * How far ahead a date of these operations may be (a resume date, a scheduled resume): ten years.
 * Further is almost surely a typo (a year 2205 for 2025), and it keeps every date the engine later
 * computes from it (the billing period a resume starts) inside RFC 3339's four-digit years.
 */
const MAX_YEARS_AHEAD = 10;

/**
 * Checks a date the request gives for `field`: strictly after `after` (described by `afterWhat`)
 * and at most MAX_YEARS_AHEAD years after `now`. Returns it as a Date.
 */
export function futureDate(field: string, value: string, now: Date, after: Date, afterWhat: string): Date {
  const date = new Date(value);
  if (date.getTime() <= after.getTime()) {
    throw invalidField(field, `must be later than ${afterWhat} (${after.toISOString()})`);
  }
  const limit = new Date(now.getTime());
  limit.setUTCFullYear(limit.getUTCFullYear() + MAX_YEARS_AHEAD);
  if (date.getTime() > limit.getTime()) {
    throw invalidField(field, `must be at most ${MAX_YEARS_AHEAD} years ahead (${limit.toISOString()} at the latest)`);
  }
  return date;
}

/**
 * Refuses `continue_existing_billing_period` for a resume at `resumeAt` when there is no kept
 * billing period, or when it will have ended by then (decision: pause-rules).
 */
export function checkContinuePeriod(periodEndsAt: Date | null, resumeAt: Date, when: string): void {
  if (periodEndsAt === null) {
    throw new ApiError(
      "subscription_continuing_existing_billing_period_not_allowed_no_billing_period",
      "The subscription has no billing period to continue when it resumes: use on_resume start_new_billing_period.",
    );
  }
  if (resumeAt.getTime() >= periodEndsAt.getTime()) {
    throw new ApiError(
      "subscription_continuing_existing_billing_period_not_allowed",
      `The subscription would resume ${when} (${resumeAt.toISOString()}), when its billing period has ended (${periodEndsAt.toISOString()}), so that period cannot be continued: use on_resume start_new_billing_period, or resume before the period ends.`,
    );
  }
}

/**
 * Sets the subscription's scheduled change (replacing any) and announces it: `subscription.updated`
 * (as in the API family: a scheduled pause, resume or cancel is an update; its moves come when it takes
 * effect). `nextBilledAt`, when given, is written too.
 */
export async function scheduleChange(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  change: NonNullable<SubscriptionRow["scheduled_change"]>,
  nextBilledAt?: Date,
): Promise<void> {
  await query(
    `UPDATE subscriptions SET scheduled_change = $2::json, next_billed_at = coalesce($3, next_billed_at) WHERE id = $1`,
    [sub.id, storableJson(change), nextBilledAt ?? null],
    client,
  );
  await emitSubscriptionEvents(client, sub.id, ["subscription.updated"]);
}
