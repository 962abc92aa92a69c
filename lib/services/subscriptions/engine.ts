/**
 * The subscription engine (reference §9; DESIGN: "Subscriptions"): everything that happens to a
 * subscription at a time of its own — renewals at `next_billed_at` (a trial's end is its first),
 * scheduled pauses, resumes and cancels at their `effective_at`, dunning retries and invoice due
 * dates at `next_retry_at`. `next_action_at` (kept by a trigger from those columns) says when the
 * next one is due.
 *
 * One step = one action in one database transaction holding the subscription's row lock, as of the
 * action's own time (never "now"), so:
 * - a period is billed exactly once: the step that bills it also moves `next_billed_at` past it in
 *   the same commit, a second worker waits for the lock and then finds nothing due, and a unique
 *   index on (subscription_id, billing_period_starts_at) of renewal transactions backs it up;
 * - a worker killed mid-step, or a database restart, rolls the step back whole: the next sweep does
 *   it again;
 * - catch-up after the workers were down for days: every missed action runs, in order, each as of
 *   its own time — every missed period is billed in its own transaction with its own
 *   billing_period (none skipped, none merged), dunning retries that fell due are tried in turn.
 * The sandbox test clock (`advanceClock`) runs the same steps for one subscription up to a date.
 */
import type pg from "pg";
import { periodAt } from "../../billing/subscription-dates.ts";
import { config } from "../../config.ts";
import { query, sqlTransaction, storableJson, updateJson } from "../../db/sql.ts";
import { pool } from "../../db.ts";
import { ApiError } from "../../http/errors.ts";
import { savedCard } from "../payment-methods.ts";
import { chargeSavedCard, INVOICE_DUE_AT } from "../payments.ts";
import { TRANSACTION } from "../transactions.ts";
import { subscriptionNow } from "./billing.ts";
import { applyCancel, applyPause, applyResume, billPeriod, dunningOffsets, scheduleInvoiceCheck } from "./lifecycle.ts";
import { emitSubscriptionEvents, lockSubscription, readSubscription, type SubscriptionRow } from "./store.ts";

/** The subscription's row, locked; with `skipLocked`, null when another worker holds it. */
async function lockDue(client: pg.PoolClient, id: string, skipLocked: boolean): Promise<SubscriptionRow | null> {
  if (!skipLocked) return lockSubscription(client, id);
  const [free] = await query("SELECT 1 FROM subscriptions WHERE id = $1 FOR UPDATE SKIP LOCKED", [id], client);
  return free ? lockSubscription(client, id) : null;
}

/**
 * The period a renewal at `at` (= next_billed_at) starts. next_billed_at is a period boundary of the
 * anchor; one that is not (moved by hand, or before the anchor) re-anchors the subscription there
 * (`reanchor`), so periods go on from it. Also what previews of the next renewal show
 * (lib/services/subscriptions/preview.ts).
 */
export function renewalPeriod(
  sub: Pick<SubscriptionRow, "billing_anchor_at" | "billing_cycle">,
  at: Date,
): { starts_at: Date; ends_at: Date; reanchor: boolean } {
  const onAnchor =
    at.getTime() >= sub.billing_anchor_at.getTime() ? periodAt(sub.billing_anchor_at, sub.billing_cycle, at) : null;
  if (onAnchor && onAnchor.starts_at.getTime() === at.getTime()) {
    return { starts_at: at, ends_at: onAnchor.ends_at, reanchor: false };
  }
  return { starts_at: at, ends_at: periodAt(at, sub.billing_cycle, at).ends_at, reanchor: true };
}

/** Renews `sub` at `at` (= its next_billed_at): the next period starts, and is billed. */
async function renew(client: pg.PoolClient, sub: SubscriptionRow, at: Date): Promise<void> {
  const { starts_at: startsAt, ends_at: endsAt, reanchor } = renewalPeriod(sub, at);
  if (reanchor) {
    await query("UPDATE subscriptions SET billing_anchor_at = $2 WHERE id = $1", [sub.id, at], client);
  }
  const wasTrialing = sub.status === "trialing";
  await query(
    `UPDATE subscriptions SET status = CASE WHEN status = 'trialing' THEN 'active' ELSE status END,
            first_billed_at = coalesce(first_billed_at, $2), current_period_starts_at = $2, current_period_ends_at = $3,
            next_billed_at = $3
      WHERE id = $1`,
    [sub.id, startsAt, endsAt],
    client,
  );
  await query(
    "UPDATE subscription_items SET previously_billed_at = $2, updated_at = now() WHERE subscription_id = $1",
    [sub.id, startsAt],
    client,
  );
  await emitSubscriptionEvents(
    client,
    sub.id,
    wasTrialing ? ["subscription.updated", "subscription.activated"] : ["subscription.updated"],
  );
  await billPeriod(
    client,
    { ...sub, status: wasTrialing ? "active" : sub.status },
    { starts_at: startsAt, ends_at: endsAt },
    at,
  );
}

/**
 * `next_retry_at` came: for automatic collection, retry the saved card on the oldest past-due
 * transaction (success recovers the subscription through the one completion function; the last
 * failure ends it as configured); for manual collection, invoices past their due date move to
 * past_due, and the subscription with them.
 */
async function collect(client: pg.PoolClient, sub: SubscriptionRow, at: Date): Promise<void> {
  if (sub.collection_mode === "manual") {
    const due = await query<{ id: string }>(
      `SELECT t.id FROM transactions t
        WHERE t.subscription_id = $1 AND t.status = 'billed' AND t.billed_at IS NOT NULL AND t.billing_details IS NOT NULL
          AND date_trunc('milliseconds', ${INVOICE_DUE_AT}) <= $2
        ORDER BY t.id FOR UPDATE`,
      [sub.id, at],
      client,
    );
    for (const { id } of due) {
      await updateJson(
        TRANSACTION,
        { sql: "t.id = $1", values: [id] },
        { status: "past_due" },
        ["transaction.updated", "transaction.past_due"],
        client,
      );
    }
    if (due.length > 0 && sub.status !== "past_due") {
      await query("UPDATE subscriptions SET status = 'past_due' WHERE id = $1", [sub.id], client);
      await emitSubscriptionEvents(client, sub.id, ["subscription.updated", "subscription.past_due"]);
    }
    await scheduleInvoiceCheck(client, sub, at);
    return;
  }
  const [txn] = await query<{ id: string }>(
    "SELECT id FROM transactions WHERE subscription_id = $1 AND status = 'past_due' ORDER BY id LIMIT 1",
    [sub.id],
    client,
  );
  if (!txn) {
    await query("UPDATE subscriptions SET next_retry_at = NULL, retry_count = 0 WHERE id = $1", [sub.id], client);
    return;
  }
  const outcome = await chargeSavedCard(client, txn.id, await savedCard(client, sub.payment_method_id), at, false);
  if (outcome === "completed") {
    // Recovered (lib/services/subscriptions/recover.ts) unless another transaction is still past due.
    const [still] = await query<{ status: string }>("SELECT status FROM subscriptions WHERE id = $1", [sub.id], client);
    if (still.status === "past_due") {
      await query("UPDATE subscriptions SET next_retry_at = $2 WHERE id = $1", [sub.id, at], client);
    }
    return;
  }
  const offsets = dunningOffsets();
  const retries = sub.retry_count + 1;
  if (retries >= offsets.length) {
    if (config.dunning.exhaustedAction === "pause") await applyPause(client, sub, at, null);
    else await applyCancel(client, sub, at);
    return;
  }
  // Offsets count from the failure: the retry made at offsets[retries - 1] after it is now.
  const failedAt = at.getTime() - offsets[retries - 1];
  await query(
    "UPDATE subscriptions SET retry_count = $2, next_retry_at = $3 WHERE id = $1",
    [sub.id, retries, new Date(failedAt + offsets[retries])],
    client,
  );
}

/** Runs the subscription's next due action at or before `until`; false when none is due (or it is held). */
export async function step(id: string, until: Date, skipLocked = false): Promise<boolean> {
  return sqlTransaction(async (client) => {
    const sub = await lockDue(client, id, skipLocked);
    if (!sub?.next_action_at || sub.next_action_at.getTime() > until.getTime()) return false;
    const at = sub.next_action_at;
    const change = sub.scheduled_change;
    if (change && new Date(change.effective_at).getTime() <= at.getTime()) {
      if (change.action === "cancel") await applyCancel(client, sub, at);
      else if (change.action === "pause") {
        await applyPause(client, sub, at, change.resume_at ? new Date(change.resume_at) : null, change.on_resume);
      } else await applyResume(client, sub, at, change.on_resume);
    } else if (sub.next_retry_at && sub.next_retry_at.getTime() <= at.getTime()) {
      await collect(client, sub, at);
    } else {
      await renew(client, sub, at);
    }
    const [after] = await query<{ moved: boolean }>(
      `SELECT (date_trunc('milliseconds', next_billed_at), date_trunc('milliseconds', next_retry_at), scheduled_change::text, status)
                IS DISTINCT FROM ($2::timestamptz, $3::timestamptz, $4::text, $5::text) AS moved
         FROM subscriptions WHERE id = $1`,
      [
        id,
        sub.next_billed_at,
        sub.next_retry_at,
        sub.scheduled_change ? storableJson(sub.scheduled_change) : null,
        sub.status,
      ],
      client,
    );
    // Every action moves the subscription on (two may fall due at one instant); one that did not
    // would run for ever.
    if (!after.moved) {
      throw new Error(`subscription ${id}: the action due at ${at.toISOString()} changed nothing`);
    }
    return true;
  });
}

/** Runs every action of subscription `id` due up to `until`, in order. Returns how many ran. */
export async function runDue(id: string, until: Date, skipLocked = false): Promise<number> {
  let ran = 0;
  while (await step(id, until, skipLocked)) {
    ran++;
    // Daily renewals over 27 years; past that something is wrong rather than due.
    if (ran >= MAX_STEPS) throw new Error(`subscription ${id}: more than ${MAX_STEPS} actions due at once`);
  }
  return ran;
}

const MAX_STEPS = 10_000;

/**
 * The worker's sweep: every subscription with an action due by now (or by its test clock), each
 * caught up in order. Several workers share the work: a subscription another holds is skipped.
 * Returns the number of actions run.
 */
export async function processDueSubscriptions(batch = 200): Promise<number> {
  let total = 0;
  for (;;) {
    const due = await query<{ id: string; clock_at: Date | null }>(
      `SELECT id, clock_at FROM subscriptions
        WHERE next_action_at <= greatest(now(), coalesce(clock_at, now()))
        ORDER BY next_action_at LIMIT $1`,
      [batch],
    );
    let ran = 0;
    for (const { id, clock_at } of due) ran += await runDue(id, subscriptionNow({ clock_at }), true);
    total += ran;
    if (due.length < batch || ran === 0) return total;
  }
}

/**
 * Sandbox test clock (ours): moves subscription `id`'s clock forward to `to`, running first, in
 * order and as of their own times, everything that would have happened to it by then. Only forward;
 * other subscriptions are not touched.
 */
export async function advanceClock(id: string, to: Date): Promise<void> {
  if (config.environment !== "sandbox") {
    throw new ApiError(
      "sandbox_only",
      "The test clock exists only in the sandbox: live subscriptions follow real time.",
    );
  }
  const sub = await readSubscription(pool(), id);
  const now = subscriptionNow(sub);
  if (to.getTime() <= now.getTime()) {
    throw new ApiError("invalid_field", "Invalid request.", {
      errors: [
        {
          field: "to",
          message: `must be later than the subscription's clock (${now.toISOString()}): the test clock only moves forward`,
        },
      ],
    });
  }
  await runDue(id, to);
  await query("UPDATE subscriptions SET clock_at = $2 WHERE id = $1 AND (clock_at IS NULL OR clock_at < $2)", [id, to]);
}
