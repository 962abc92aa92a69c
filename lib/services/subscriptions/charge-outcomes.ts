/**
 * What a subscription does with the outcome of a charge of its saved method — one concept in one
 * place, whether the outcome is known at once (a sandbox test card, charged in the engine's
 * database transaction) or later (a Stripe method: recorded as an attempt in that transaction,
 * charged after it commits, settled in a new one; lib/services/payments/off-session.ts):
 *
 * - `renewal` (a renewal, a resume or a trial's end that bills a period, a change or one-time
 *   charge with on_payment_failure apply_change): a decline makes the subscription past_due and
 *   schedules the first dunning retry (stops.ts markPastDue); a success needs nothing more (the
 *   one completion recovers a past-due subscription).
 * - `dunning` (a retry at next_retry_at): a success that leaves no other transaction past due has
 *   recovered the subscription (completion); one that leaves another retries it at once; a decline
 *   schedules the next retry from the failure, or, after the last, pauses or cancels as configured.
 * - `change` (a change, one-time charge or activation with on_payment_failure prevent_change, paid
 *   through Stripe): the change was applied with the charge recorded, so a decline undoes it — the
 *   subscription's rows as they were before (a snapshot taken under the lock before the change),
 *   the transaction canceled — unless the subscription moved since (another change committed in
 *   between), in which case the change stands and the decline is an apply_change one. See
 *   lib/payments/README.md, "prevent_change without a transaction across the call".
 *
 * The purpose is written on the attempt (`payment_attempts.purpose`, JSON) so that a settlement
 * after a crash (the reconciliation job) does exactly what the process that recorded it would have.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import { config } from "../../config.ts";
import { query, queryExactlyOne, storableJson } from "../../db/sql.ts";
import type { PaymentAttempt } from "../../payments/attempts.ts";
import { type ChargeResult, type OnSettled, offSessionScope, scopedAttempts } from "../payments/off-session.ts";
import type { ChargeOutcome } from "../payments/saved-charges.ts";
import { releaseDiscount } from "../transactions/discounts.ts";
import { cancelTransactions, markTransactionsPastDue } from "../transactions/moves.ts";
import { applyCancel, applyPause, dunningOffsets, markPastDue } from "./stops.ts";
import { emitSubscriptionEvents, lockSubscription, type SubscriptionRow } from "./store.ts";

/** The subscription's rows before a change, to undo it (`change`). */
export interface SubscriptionSnapshot {
  subscription: Record<string, unknown>;
  items: Record<string, unknown>[];
  charges: Record<string, unknown>[];
}

export type ChargePurpose =
  | { kind: "renewal"; subscription_id: string; at: string }
  | { kind: "dunning"; subscription_id: string; at: string }
  | {
      kind: "change";
      subscription_id: string;
      at: string;
      operation: "update" | "charge" | "activate";
      snapshot: SubscriptionSnapshot;
      /** The subscription's rows' fingerprint when the change committed (sealChangeAttempts). */
      after_version?: string;
    };

export function purposeText(purpose: ChargePurpose): string {
  return storableJson(purpose);
}

export function purposeOf(attempt: Pick<PaymentAttempt, "purpose">): ChargePurpose | null {
  if (!attempt.purpose?.startsWith("{")) return null;
  try {
    return JSON.parse(attempt.purpose) as ChargePurpose;
  } catch {
    return null;
  }
}

/**
 * The follow-up of a charge's outcome (see the top of this file), in the caller's database
 * transaction. `declined` for a `change` happens only for Stripe charges (a sandbox decline with
 * prevent_change rolls the whole request back instead).
 */
export async function afterCharge(
  client: pg.PoolClient,
  purpose: ChargePurpose,
  outcome: "completed" | "declined",
  transactionId: string,
): Promise<void> {
  const at = new Date(purpose.at);
  if (purpose.kind === "renewal") {
    if (outcome === "declined") await markPastDue(client, purpose.subscription_id, at);
    return;
  }
  if (purpose.kind === "dunning") {
    await afterRetry(client, await lockSubscription(client, purpose.subscription_id), at, outcome);
    return;
  }
  if (outcome === "declined") await undoChange(client, purpose, transactionId);
}

/** A dunning retry's outcome (see the top of this file). */
async function afterRetry(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  at: Date,
  outcome: "completed" | "declined",
): Promise<void> {
  if (outcome === "completed") {
    // Recovered (recover.ts) unless another transaction is still past due: retry that one now.
    if (sub.status === "past_due") {
      await query("UPDATE subscriptions SET next_retry_at = $2 WHERE id = $1", [sub.id, at], client);
    }
    return;
  }
  if (sub.status !== "past_due") return; // moved on while the charge was under way (canceled, paused)
  const offsets = dunningOffsets();
  const retries = sub.retry_count + 1;
  const nextOffset = offsets[retries];
  if (nextOffset === undefined) {
    if (config.dunning.exhaustedAction === "pause") await applyPause(client, sub, at, null);
    else await applyCancel(client, sub, at);
    return;
  }
  // Offsets count from the failure: the retry made at offsets[retries - 1] after it is now (that
  // offset exists: retries is at least 1 and offsets[retries] exists; 0 only satisfies the compiler).
  const failedAt = at.getTime() - (offsets[retries - 1] ?? 0);
  await query(
    "UPDATE subscriptions SET retry_count = $2, next_retry_at = $3 WHERE id = $1",
    [sub.id, retries, new Date(failedAt + nextOffset)],
    client,
  );
}

/**
 * The engine's follow-up of a synchronous outcome (the sandbox's cards): afterCharge, or nothing
 * while a Stripe charge is pending (its settlement runs afterCharge).
 */
export async function afterSyncCharge(
  client: pg.PoolClient,
  purpose: ChargePurpose,
  outcome: ChargeOutcome,
  transactionId: string,
): Promise<void> {
  if (outcome !== "pending") await afterCharge(client, purpose, outcome, transactionId);
}

/** The settlement follow-up of an attempt, from its purpose (also after a crash). */
export function followUpOf(attempt: PaymentAttempt): OnSettled | undefined {
  const purpose = purposeOf(attempt);
  if (!purpose) return undefined;
  return async (client, settled) => {
    if (settled.outcome === "completed") await afterCharge(client, purpose, "completed", attempt.transaction_id);
    else if (settled.outcome === "failed") await afterCharge(client, purpose, "declined", attempt.transaction_id);
  };
}

/**
 * Runs `fn` (one database transaction of the engine or of an operation), then charges the Stripe
 * attempts it recorded and settles them with their follow-ups (off-session.ts offSessionScope).
 */
export function billingScope<T>(fn: () => Promise<T>): Promise<{ result: T; settled: ChargeResult[] }> {
  return offSessionScope(fn, followUpOf);
}

// ---------------------------------------------------------------------------------------------
// prevent_change through Stripe: snapshot, seal, undo

const operationContext = new AsyncLocalStorage<{ snapshot: SubscriptionSnapshot | null }>();

/** Runs an operation (operation.ts) with room for its subscription's snapshot. */
export function withOperationContext<T>(fn: () => Promise<T>): Promise<T> {
  return operationContext.run({ snapshot: null }, fn);
}

/**
 * Takes the subscription's snapshot before an operation changes it, when its saved method is
 * Stripe's (only then can a prevent_change charge need undoing). Under the subscription's lock.
 */
export async function snapshotForOperation(client: pg.PoolClient, sub: SubscriptionRow): Promise<void> {
  const context = operationContext.getStore();
  if (!context || !sub.payment_method_id) return;
  const [method] = await query<{ processor: string | null }>(
    "SELECT processor FROM payment_methods WHERE id = $1",
    [sub.payment_method_id],
    client,
  );
  if (method?.processor !== "stripe") return;
  const row = await queryExactlyOne<SubscriptionSnapshot>(
    `SELECT (SELECT row_to_json(s) FROM subscriptions s WHERE s.id = $1) AS subscription,
            coalesce((SELECT json_agg(i ORDER BY i.id) FROM subscription_items i WHERE i.subscription_id = $1), '[]') AS items,
            coalesce((SELECT json_agg(c ORDER BY c.id) FROM subscription_charges c
                       WHERE c.subscription_id = $1 AND c.transaction_id IS NULL), '[]') AS charges`,
    [sub.id],
    client,
  );
  context.snapshot = row;
}

/**
 * The purpose of a charge made by an operation with `on_payment_failure` prevent_change: `change`
 * when the operation took a snapshot (a Stripe method), else null (the sandbox: a decline throws
 * and the request rolls back whole).
 */
export function changePurpose(
  subscriptionId: string,
  at: Date,
  operation: "update" | "charge" | "activate",
): ChargePurpose | null {
  const snapshot = operationContext.getStore()?.snapshot;
  if (!snapshot) return null;
  return { kind: "change", subscription_id: subscriptionId, at: at.toISOString(), operation, snapshot };
}

/** The fingerprint of the subscription's rows: any write to them after the change shows. */
async function subscriptionVersion(client: pg.PoolClient, id: string): Promise<string> {
  const row = await queryExactlyOne<{ version: string }>(
    `SELECT md5(concat((SELECT row_to_json(s)::text FROM subscriptions s WHERE s.id = $1),
                       (SELECT json_agg(i ORDER BY i.id)::text FROM subscription_items i WHERE i.subscription_id = $1),
                       (SELECT json_agg(c ORDER BY c.id)::text FROM subscription_charges c
                         WHERE c.subscription_id = $1 AND c.transaction_id IS NULL))) AS version`,
    [id],
    client,
  );
  return row.version;
}

/**
 * At the end of an operation's database transaction: the `change` attempts it recorded get the
 * subscription's fingerprint as the change leaves it (what an undo checks before restoring).
 */
export async function sealChangeAttempts(client: pg.PoolClient, subscriptionId: string): Promise<void> {
  const sealed = scopedAttempts().filter((a) => purposeOf(a)?.kind === "change");
  if (sealed.length === 0) return;
  const version = await subscriptionVersion(client, subscriptionId);
  for (const attempt of sealed) {
    // The in-memory row too: this process settles it with this purpose.
    (attempt as { purpose: string | null }).purpose = purposeText({
      ...(purposeOf(attempt) as ChargePurpose),
      after_version: version,
    } as ChargePurpose);
  }
  await query(
    `UPDATE payment_attempts a SET purpose = x.purpose FROM unnest($1::uuid[], $2::text[]) AS x(id, purpose)
      WHERE a.id = x.id`,
    [sealed.map((a) => a.id), sealed.map((a) => a.purpose)],
    client,
  );
}

let subscriptionColumns: string[] | null = null;

async function columnsOf(client: pg.PoolClient): Promise<string[]> {
  subscriptionColumns ??= (
    await query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'subscriptions' AND column_name <> 'id'
        ORDER BY ordinal_position`,
      [],
      client,
    )
  ).map((row) => `"${row.column_name}"`);
  return subscriptionColumns;
}

/**
 * A prevent_change charge was declined at Stripe after the change committed: undo the change (see
 * the top of this file). The transaction (with its failed payment) is canceled, which gives back
 * any credit it reserved; the subscription's rows are restored and `subscription.updated` says so.
 */
async function undoChange(
  client: pg.PoolClient,
  purpose: Extract<ChargePurpose, { kind: "change" }>,
  transactionId: string,
): Promise<void> {
  const id = purpose.subscription_id;
  await lockSubscription(client, id);
  const moved =
    purpose.after_version === undefined || (await subscriptionVersion(client, id)) !== purpose.after_version;
  if (moved) {
    // Another change committed in between: ours stands, as with apply_change.
    await markTransactionsPastDue(client, [transactionId]);
    await markPastDue(client, id, new Date(purpose.at));
    return;
  }
  const { snapshot } = purpose;
  const [current] = await query<{ discount_id: string | null }>(
    "SELECT discount_id FROM subscriptions WHERE id = $1",
    [id],
    client,
  );
  const columns = await columnsOf(client);
  await query(
    `UPDATE subscriptions s SET (${columns.join(", ")}) = (SELECT ${columns.join(", ")} FROM json_populate_record(NULL::subscriptions, $2::json))
      WHERE s.id = $1`,
    [id, storableJson(snapshot.subscription)],
    client,
  );
  await query("DELETE FROM subscription_items WHERE subscription_id = $1", [id], client);
  await query(
    "INSERT INTO subscription_items SELECT * FROM json_populate_recordset(NULL::subscription_items, $1::json)",
    [storableJson(snapshot.items)],
    client,
  );
  await query(
    "DELETE FROM subscription_charges WHERE subscription_id = $1 AND (transaction_id IS NULL OR transaction_id = $2)",
    [id, transactionId],
    client,
  );
  await query(
    "INSERT INTO subscription_charges SELECT * FROM json_populate_recordset(NULL::subscription_charges, $1::json)",
    [storableJson(snapshot.charges)],
    client,
  );
  // A discount the change redeemed is given back.
  const before = (snapshot.subscription.discount_id as string | null) ?? null;
  if (current?.discount_id && current.discount_id !== before) await releaseDiscount(client, current.discount_id);
  await cancelTransactions(client, [transactionId]);
  await emitSubscriptionEvents(client, id, ["subscription.updated"]);
}

/** What a declined prevent_change charge answers, by operation. */
export const DECLINED_CHANGE: Record<Extract<ChargePurpose, { kind: "change" }>["operation"], string> = {
  update:
    "The payment for the change was declined, so nothing was changed (on_payment_failure prevent_change). Ask the customer to update their payment method, or send on_payment_failure apply_change.",
  charge:
    "The payment for the charge was declined, so nothing was charged (on_payment_failure prevent_change). Ask the customer to update their payment method, or send on_payment_failure apply_change.",
  activate:
    "The subscription's saved payment method was declined for the first period's charge, so the subscription was not activated and nothing changed: it stays in trial until its trial ends. The customer can update the payment method and you can try again.",
};
