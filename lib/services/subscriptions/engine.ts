/**
 * The subscription engine (docs/architecture.md; decision: dunning-schedule): everything that happens to a
 * subscription at a time of its own — renewals at `next_billed_at` (a trial's end is its first),
 * scheduled pauses, resumes and cancels at their `effective_at`, dunning retries and invoice due
 * dates at `next_retry_at`. `next_action_at` (kept by a trigger from those columns) says when the
 * next one is due.
 *
 * One step = one action of each subscription it takes, in one database transaction holding their
 * row locks, as of each action's own time (never "now"). A single step (the test clock, the API's
 * catch-up) takes one subscription; the worker's sweep takes a batch of due renewals at once and
 * renews them set-based (`renew` is the one renewal, of one subscription or of many). So:
 * - a period is billed exactly once: the step that bills it also moves `next_billed_at` past it in
 *   the same commit, a second worker waits for the lock (or skips the row) and then finds nothing
 *   due, and a unique index on (subscription_id, billing_period_starts_at) of renewal transactions
 *   backs it up;
 * - a worker killed mid-step, or a database restart, rolls the step back whole (a whole batch: no
 *   renewal of it happened): the next sweep does it again;
 * - catch-up after the workers were down for days: every missed action runs, in order, each as of
 *   its own time — every missed period is billed in its own transaction with its own
 *   billing_period (none skipped, none merged), dunning retries that fell due are tried in turn.
 * The sandbox test clock (`advanceClock`) runs the same steps for one subscription up to a date.
 */
import type pg from "pg";
import { periodAt } from "../../billing/subscription-dates.ts";
import { pool } from "../../db/connection.ts";
import { query, sqlTransaction, storableJson } from "../../db/sql.ts";
import { invalidField } from "../../errors.ts";
import { savedCard } from "../payment-methods.ts";
import { INVOICE_DUE_AT } from "../payments/past-due.ts";
import { chargeSavedCard } from "../payments/saved-charges.ts";
import { markTransactionsPastDue } from "../transactions/moves.ts";
import { subscriptionNow } from "./billing.ts";
import { afterSyncCharge, billingScope, purposeText } from "./charge-outcomes.ts";
import { applyResume, billPeriods, scheduleInvoiceCheck } from "./lifecycle.ts";
import { markSubscriptionsPastDue, renewSubscriptions } from "./moves.ts";
import { applyCancel, applyPause } from "./stops.ts";
import { lockSubscription, ROW_COLUMNS, readSubscription, type SubscriptionRow } from "./store.ts";
import { requireSandboxClock } from "./test-clock.ts";

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

/**
 * Renews each subscription at its `at` (= its next_billed_at): the next period starts, and is
 * billed. Set-based: the engine's sweep renews a batch of subscriptions in one database transaction
 * with a few statements for all of them (the subscriptions' rows and items, their events, then
 * billPeriods); a single step renews one the same way.
 */
async function renew(client: pg.PoolClient, renewals: readonly { sub: SubscriptionRow; at: Date }[]): Promise<void> {
  if (renewals.length === 0) return;
  const periods = renewals.map(({ sub, at }) => ({ sub, at, ...renewalPeriod(sub, at) }));
  // The items first: the subscription's events show them as billed.
  await query(
    `UPDATE subscription_items i SET previously_billed_at = x.starts_at, updated_at = now()
       FROM unnest($1::text[], $2::timestamptz[]) AS x(id, starts_at) WHERE i.subscription_id = x.id`,
    [periods.map((p) => p.sub.id), periods.map((p) => p.starts_at)],
    client,
  );
  await renewSubscriptions(
    client,
    periods.map(({ sub, starts_at, ends_at, reanchor }) => ({
      id: sub.id,
      status: sub.status,
      starts_at,
      ends_at,
      reanchor,
    })),
  );
  await billPeriods(
    client,
    periods.map(({ sub, at, starts_at, ends_at }) => ({
      sub: { ...sub, status: sub.status === "trialing" ? "active" : sub.status },
      period: { starts_at, ends_at },
      at,
    })),
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
    await markTransactionsPastDue(
      client,
      due.map((row) => row.id),
    );
    if (due.length > 0 && sub.status !== "past_due") await markSubscriptionsPastDue(client, [sub.id]);
    await scheduleInvoiceCheck(client, sub);
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
  const purpose = { kind: "dunning" as const, subscription_id: sub.id, at: at.toISOString() };
  const outcome = await chargeSavedCard(
    client,
    txn.id,
    await savedCard(client, sub.payment_method_id),
    at,
    false,
    purposeText(purpose),
  );
  if (outcome === "pending") {
    // Charged through Stripe once this commits; its settlement schedules what comes next
    // (charge-outcomes.ts afterCharge). No retry is due meanwhile.
    await query("UPDATE subscriptions SET next_retry_at = NULL WHERE id = $1", [sub.id], client);
    return;
  }
  await afterSyncCharge(client, purpose, outcome, txn.id);
}

/** What a due subscription does at its `next_action_at`. */
function dueAction(sub: SubscriptionRow): "change" | "collect" | "renew" {
  const at = sub.next_action_at as Date;
  const change = sub.scheduled_change;
  if (change && new Date(change.effective_at).getTime() <= at.getTime()) return "change";
  if (sub.next_retry_at && sub.next_retry_at.getTime() <= at.getTime()) return "collect";
  return "renew";
}

/** Applies the scheduled change due at `at`. */
async function applyChange(client: pg.PoolClient, sub: SubscriptionRow, at: Date): Promise<void> {
  const change = sub.scheduled_change as NonNullable<SubscriptionRow["scheduled_change"]>;
  if (change.action === "cancel") await applyCancel(client, sub, at);
  else if (change.action === "pause") {
    await applyPause(client, sub, at, change.resume_at ? new Date(change.resume_at) : null, change.on_resume);
  } else await applyResume(client, sub, at, change.on_resume);
}

/**
 * Runs the one due action of each locked subscription in `due`, as of its own `next_action_at`:
 * scheduled changes and dunning retries one by one, renewals (the common case) together. Then
 * checks that every one moved on. Returns each subscription's next_action_at after it.
 */
async function runActions(client: pg.PoolClient, due: readonly SubscriptionRow[]): Promise<Map<string, Date | null>> {
  const renewals: { sub: SubscriptionRow; at: Date }[] = [];
  for (const sub of due) {
    const at = sub.next_action_at as Date;
    const action = dueAction(sub);
    if (action === "change") await applyChange(client, sub, at);
    else if (action === "collect") await collect(client, sub, at);
    else renewals.push({ sub, at });
  }
  await renew(client, renewals);
  const after = await query<{ id: string; moved: boolean; next_action_at: Date | null }>(
    `SELECT s.id, s.next_action_at,
            (date_trunc('milliseconds', s.next_billed_at), date_trunc('milliseconds', s.next_retry_at), s.scheduled_change::text, s.status)
              IS DISTINCT FROM (x.next_billed_at, x.next_retry_at, x.scheduled_change, x.status) AS moved
       FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::text[], $5::text[])
              AS x(id, next_billed_at, next_retry_at, scheduled_change, status)
       JOIN subscriptions s ON s.id = x.id`,
    [
      due.map((sub) => sub.id),
      due.map((sub) => sub.next_billed_at),
      due.map((sub) => sub.next_retry_at),
      due.map((sub) => (sub.scheduled_change ? storableJson(sub.scheduled_change) : null)),
      due.map((sub) => sub.status),
    ],
    client,
  );
  // Every action moves the subscription on (two may fall due at one instant); one that did not
  // would run for ever.
  const stuck = after.find((row) => !row.moved);
  if (stuck) {
    const sub = due.find((d) => d.id === stuck.id) as SubscriptionRow;
    throw new Error(`subscription ${sub.id}: the action due at ${sub.next_action_at?.toISOString()} changed nothing`);
  }
  return new Map(after.map((row) => [row.id, row.next_action_at]));
}

/**
 * Runs the subscription's next due action at or before `until`. `ran`: false when none is due (or
 * it is held); `more`: whether another is due by `until` after it.
 */
async function stepOnce(id: string, until: Date, skipLocked: boolean): Promise<{ ran: boolean; more: boolean }> {
  const { result, settled } = await billingScope(() =>
    sqlTransaction(async (client) => {
      const sub = await lockDue(client, id, skipLocked);
      if (!sub?.next_action_at || sub.next_action_at.getTime() > until.getTime()) return { ran: false, more: false };
      const next = (await runActions(client, [sub])).get(id) ?? null;
      return { ran: true, more: next !== null && next.getTime() <= until.getTime() };
    }),
  );
  if (settled.length === 0) return result;
  // A Stripe charge settled after the step (a decline schedules a retry): what is due now.
  const [row] = await query<{ next_action_at: Date | null }>("SELECT next_action_at FROM subscriptions WHERE id = $1", [
    id,
  ]);
  return { ran: result.ran, more: row?.next_action_at != null && row.next_action_at.getTime() <= until.getTime() };
}

/** Runs the subscription's next due action at or before `until`; false when none is due (or it is held). */
export async function step(id: string, until: Date, skipLocked = false): Promise<boolean> {
  return (await stepOnce(id, until, skipLocked)).ran;
}

/** Runs every action of subscription `id` due up to `until`, in order. Returns how many ran. */
export async function runDue(id: string, until: Date, skipLocked = false): Promise<number> {
  let ran = 0;
  for (;;) {
    const done = await stepOnce(id, until, skipLocked);
    if (!done.ran) return ran;
    ran++;
    // The step said whether another is due: no empty step to find out.
    if (!done.more) return ran;
    // Daily renewals over 27 years; past that something is wrong rather than due.
    if (ran >= MAX_STEPS) throw new Error(`subscription ${id}: more than ${MAX_STEPS} actions due at once`);
  }
}

const MAX_STEPS = 10_000;

/** Subscriptions the sweep takes per database transaction (memory and lock time stay bounded). */
export const SWEEP_BATCH = 200;

/**
 * The worker's sweep: every subscription with an action due by now (or by its test clock), each
 * caught up in order. Returns the number of actions run.
 *
 * Batches: each database transaction locks up to `batch` due subscriptions (FOR UPDATE SKIP
 * LOCKED: several workers share the work, a subscription another holds is skipped) and renews,
 * set-based, those whose due action is a renewal (the common case). A crash or error rolls the
 * whole batch back: none of it happened, the next sweep does it again. A subscription with more
 * renewals due (catch-up after days) is due again at once and comes back in a later batch, each
 * renewal as of its own time.
 *
 * The unusual actions (scheduled changes, dunning retries, invoice due dates) run after the batch
 * commits, each subscription caught up in its own database transactions (runDue): in a batch,
 * their locks (credit balance, invoice counter) would be taken after the renewals' in an order no
 * other biller uses, and a request billing at the same time could deadlock with the batch.
 */
export async function processDueSubscriptions(batch = SWEEP_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const {
      result: { locked, renewed, others },
    } = await retryDeadlock(() =>
      // The batch's Stripe charges are made once it commits, and settled (billingScope).
      billingScope(() =>
        sqlTransaction(async (client) => {
          const rows = await query<SubscriptionRow>(
            `SELECT ${ROW_COLUMNS} FROM subscriptions t
            WHERE t.next_action_at <= greatest(now(), coalesce(t.clock_at, now()))
            ORDER BY t.next_action_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
            [batch],
            client,
          );
          // Due by the database's clock but not yet by this process's: the next sweep.
          const due = rows.filter((sub) => (sub.next_action_at as Date).getTime() <= subscriptionNow(sub).getTime());
          const renewals = due.filter((sub) => dueAction(sub) === "renew");
          await runActions(client, renewals);
          return {
            locked: rows.length,
            renewed: renewals.length,
            others: due.filter((sub) => !renewals.includes(sub)),
          };
        }),
      ),
    );
    let ran = renewed;
    for (const sub of others) ran += await runDue(sub.id, subscriptionNow(sub), true);
    total += ran;
    if (locked < batch || ran === 0) return total;
  }
}

/** Runs `fn` again (up to 3 times) when PostgreSQL aborted it to break a deadlock. */
async function retryDeadlock<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || attempt >= 3) throw error;
    }
  }
}

/**
 * Sandbox test clock (ours): moves subscription `id`'s clock forward to `to`, running first, in
 * order and as of their own times, everything that would have happened to it by then (the
 * trial-ending reminder email included). Only forward; other subscriptions are not touched.
 */
export async function advanceClock(id: string, to: Date): Promise<void> {
  requireSandboxClock();
  const sub = await readSubscription(pool(), id);
  const now = subscriptionNow(sub);
  if (to.getTime() <= now.getTime()) {
    throw invalidField(
      "to",
      `must be later than the subscription's clock (${now.toISOString()}): the test clock only moves forward`,
    );
  }
  // The trial-ending reminder follows this clock too: not an engine action (it changes nothing of
  // the subscription), so it is sent here, in order, as of its own time: after what falls due
  // before it (a cancellation then skips it), before the trial's end (which would activate it).
  const { remindTrialEndingBy, trialReminderAt } = await import("../emails/events.ts");
  if (sub.status === "trialing" && sub.next_billed_at) {
    const remindAt = trialReminderAt(sub.next_billed_at);
    if (remindAt.getTime() <= to.getTime()) {
      if (remindAt.getTime() > now.getTime()) await runDue(id, remindAt);
      await remindTrialEndingBy(id, remindAt.getTime() > now.getTime() ? remindAt : now);
    }
  }
  await runDue(id, to);
  await query("UPDATE subscriptions SET clock_at = $2 WHERE id = $1 AND (clock_at IS NULL OR clock_at < $2)", [id, to]);
}
