/**
 * The moves of a subscription when they take effect: cancel, pause,
 * resume and past_due. The API applies them "immediately" (lib/services/subscriptions/pause.ts,
 * cancel.ts, resume.ts); the engine applies scheduled ones at their `effective_at`
 * (lib/services/subscriptions/engine.ts). Each runs inside the caller's database transaction with
 * the subscription's row locked, as of `at` (the subscription's clock), and writes its events.
 *
 * Decisions (cancel-rules, pause-rules, pause-credits-unused-period in docs/decisions/):
 * - Canceling forgives what was waiting for the next renewal (pending charges and credits) and
 *   stops dunning; past-due transactions stay as they are (still payable).
 * - Pausing cancels past-due renewal transactions (origin subscription_recurring), forgives pending
 *   credits and keeps pending charges for the resume's transaction. The current
 *   period is kept in the row (a resume may continue it) and shown null while paused.
 * - Pausing a paid (active) subscription before its period ends credits the unused rest of that
 *   period (pauseCreditLines): the API family forgives it, so that a pause "now" followed by a
 *   resume charged a whole new period on top of the one just paid (issue 26: $245 charged minutes
 *   after the period was paid). The credit lines wait in subscription_charges, as prorated credits
 *   of an item change do, and the resume's transaction (a new period) carries them; a resume that
 *   continues the kept period drops them (the customer keeps that period instead), and a cancel
 *   while paused forgives them with every other pending line. Decision: pause-credits-unused-period.
 * - A paused subscription with `resume_at` has `next_billed_at` = resume_at (the resume bills a new
 *   period then) and a scheduled resume; open-ended, `next_billed_at` is null.
 * - A scheduled resume with `continue_existing_billing_period` that comes after the kept period
 *   ended starts a new period instead (the API refuses that choice up front when it can tell).
 */
import type pg from "pg";
import { addInterval } from "../../billing/billing-dates.ts";
import { parseDecimal } from "../../billing/money.ts";
import { formatRate, prorationRate } from "../../billing/proration.ts";
import { config } from "../../config.ts";
import { type Queryable, query, storableJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import type { OnResume } from "../../schemas/subscription.ts";
import { rfc3339 } from "../../timestamps.ts";
import { INVOICE_DUE_AT } from "../payments/past-due.ts";
import { cancelTransactions } from "../transactions/moves.ts";
import { type BillLine, type BillRequest, billSubscriptions, periodDiscount } from "./billing.ts";
// biome-ignore lint/suspicious/noImportCycles: see charge-outcomes.ts (issue 25 item 2 dissolves this cycle).
import { afterSyncCharge, type ChargePurpose, purposeText } from "./charge-outcomes.ts";
import {
  markSubscriptionCanceled,
  markSubscriptionPaused,
  markSubscriptionResumed,
  markSubscriptionsPastDue,
} from "./moves.ts";
import { type SubscriptionRow, subscriptionItemsOf } from "./store.ts";

/**
 * A pending line's `proration` as `subscription_charges` stores it: the API's `{rate,
 * billing_period}`; the exact ratio the engine uses is the rate itself (5 places at most).
 */
export type StoredProration = Omit<NonNullable<BillLine["proration"]>, "ratio">;

export async function applyCancel(client: pg.PoolClient, sub: SubscriptionRow, at: Date): Promise<void> {
  await query(
    "DELETE FROM subscription_charges WHERE subscription_id = $1 AND transaction_id IS NULL",
    [sub.id],
    client,
  );
  await query("UPDATE subscription_items SET updated_at = now() WHERE subscription_id = $1", [sub.id], client);
  await markSubscriptionCanceled(client, sub.id, at);
}

export async function applyPause(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  at: Date,
  resumeAt: Date | null,
  onResume: OnResume = "start_new_billing_period",
): Promise<void> {
  const pastDue = await query<{ id: string }>(
    `SELECT id FROM transactions WHERE subscription_id = $1 AND status = 'past_due' AND origin = 'subscription_recurring'
      ORDER BY id FOR UPDATE`,
    [sub.id],
    client,
  );
  await cancelTransactions(
    client,
    pastDue.map((row) => row.id),
  );
  await query(
    "DELETE FROM subscription_charges WHERE subscription_id = $1 AND transaction_id IS NULL AND quantity < 0",
    [sub.id],
    client,
  );
  const credit = await pauseCreditLines(client, sub, at);
  if (credit.length > 0) await addPendingLines(client, sub.id, credit);
  await query("UPDATE subscription_items SET updated_at = now() WHERE subscription_id = $1", [sub.id], client);
  await markSubscriptionPaused(client, sub.id, at, resumeAt, onResume);
}

/**
 * The credit of a pause at `at` (see the top of this file): each item of a paid, active
 * subscription credited for the rest of its current period, prorated to the minute as an item
 * removed at `at` is (proration.ts prorationRate). None for a pause at the period's end (a
 * scheduled pause), a trial (nothing paid) or a past_due subscription (its period is unpaid).
 */
export async function pauseCreditLines(on: Queryable, sub: SubscriptionRow, at: Date): Promise<BillLine[]> {
  if (sub.status !== "active" || !sub.current_period_starts_at || !sub.current_period_ends_at) return [];
  const period = { starts_at: sub.current_period_starts_at, ends_at: sub.current_period_ends_at };
  if (at.getTime() >= period.ends_at.getTime() || at.getTime() < period.starts_at.getTime()) return [];
  const rate = prorationRate(period, at);
  if (rate.numerator === 0n) return [];
  const items = (await subscriptionItemsOf(on, [sub.id])).get(sub.id) ?? [];
  return items.map((item) => ({
    price: item.price as unknown as BillLine["price"],
    product: item.product as unknown as BillLine["product"],
    quantity: item.quantity,
    credit: true,
    proration: {
      rate: formatRate(rate),
      ratio: rate,
      billing_period: { starts_at: rfc3339(at), ends_at: rfc3339(period.ends_at) },
    },
  }));
}

/** Whether a paused subscription can resume inside its kept period at `at`. */
export function canContinuePeriod(sub: SubscriptionRow, at: Date): boolean {
  return sub.current_period_ends_at !== null && at.getTime() < sub.current_period_ends_at.getTime();
}

/**
 * Resumes a paused subscription at `at`: `start_new_billing_period` starts a period now and bills it
 * (its payment failing makes the subscription past_due); `continue_existing_billing_period`
 * continues the kept period without a charge.
 */
export async function applyResume(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  at: Date,
  onResume: OnResume = "start_new_billing_period",
): Promise<void> {
  if (onResume === "continue_existing_billing_period" && canContinuePeriod(sub, at)) {
    // The customer keeps the period the pause credited: the credit goes (see the top of this file).
    await query(
      "DELETE FROM subscription_charges WHERE subscription_id = $1 AND transaction_id IS NULL AND quantity < 0",
      [sub.id],
      client,
    );
    await query("UPDATE subscription_items SET updated_at = now() WHERE subscription_id = $1", [sub.id], client);
    await markSubscriptionResumed(client, sub.id, null);
    return;
  }
  const endsAt = addInterval(at, sub.billing_cycle.interval, sub.billing_cycle.frequency);
  await query(
    "UPDATE subscription_items SET previously_billed_at = $2, updated_at = now() WHERE subscription_id = $1",
    [sub.id, at],
    client,
  );
  await markSubscriptionResumed(client, sub.id, { startsAt: at, endsAt });
  const period = { starts_at: at, ends_at: endsAt };
  await billPeriod(client, { ...sub, status: "active" }, period, at);
}

/**
 * The subscription's recurring items plus every line waiting for its next transaction (locked
 * unless `lock` is false: previews read them as they are).
 */
export async function periodLines(
  client: Queryable,
  subscriptionId: string,
  lock = true,
): Promise<{ lines: BillLine[]; pendingIds: string[] }> {
  return (await periodLinesOf(client, [subscriptionId], lock)).get(subscriptionId) as {
    lines: BillLine[];
    pendingIds: string[];
  };
}

/** periodLines of many subscriptions, in two queries (a batch of renewals). */
export async function periodLinesOf(
  client: Queryable,
  subscriptionIds: readonly string[],
  lock = true,
): Promise<Map<string, { lines: BillLine[]; pendingIds: string[] }>> {
  const items = await subscriptionItemsOf(client, subscriptionIds);
  const pending = await query<{
    id: string;
    subscription_id: string;
    quantity: number;
    price: BillLine["price"];
    product: BillLine["product"];
    proration: StoredProration | null;
  }>(
    `SELECT id, subscription_id, quantity, price, product, proration FROM subscription_charges
      WHERE subscription_id = ANY($1) AND transaction_id IS NULL ORDER BY id${lock ? " FOR UPDATE" : ""}`,
    [subscriptionIds],
    client,
  );
  const result = new Map<string, { lines: BillLine[]; pendingIds: string[] }>();
  for (const id of subscriptionIds) {
    result.set(id, {
      lines: (items.get(id) ?? []).map((item) => ({
        price: item.price as unknown as BillLine["price"],
        product: item.product as unknown as BillLine["product"],
        quantity: item.quantity,
      })),
      pendingIds: [],
    });
  }
  for (const charge of pending) {
    const of = result.get(charge.subscription_id);
    if (!of) continue;
    of.lines.push({
      price: charge.price,
      product: charge.product,
      quantity: Math.abs(charge.quantity),
      credit: charge.quantity < 0,
      proration: charge.proration && {
        ...charge.proration,
        ratio: parseDecimal(charge.proration.rate, "proration.rate"),
      },
    });
    of.pendingIds.push(charge.id);
  }
  return result;
}

/**
 * Bills the period `period` of `sub` at `at` (a renewal, a resume, a trial activation): its items
 * and waiting lines, with the discount of that period; a declined card makes it past_due.
 */
export async function billPeriod(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  period: { starts_at: Date; ends_at: Date },
  at: Date,
  purpose?: ChargePurpose | null,
): Promise<string> {
  const [transactionId] = await billPeriods(client, [{ sub, period, at, purpose }]);
  if (transactionId === undefined) throw new Error(`billing subscription ${sub.id}'s period answered no transaction`);
  return transactionId;
}

/** A period to bill: as of `at`; `purpose`, when not a renewal's (an activation's prevent_change). */
export interface PeriodBill {
  sub: SubscriptionRow;
  period: { starts_at: Date; ends_at: Date };
  at: Date;
  purpose?: ChargePurpose | null;
}

/**
 * billPeriod for many subscriptions at once (a batch of renewals), set-based: their lines read in
 * two queries, their transactions billed and charged together (billSubscriptions). Returns the
 * transaction IDs, in the order of `bills`.
 */
export async function billPeriods(client: pg.PoolClient, bills: readonly PeriodBill[]): Promise<string[]> {
  if (bills.length === 0) return [];
  const lines = await periodLinesOf(
    client,
    bills.map((b) => b.sub.id),
  );
  const planned: { request: BillRequest; charge: ChargePurpose }[] = [];
  for (const { sub, period, at, purpose } of bills) {
    const charge = purpose ?? { kind: "renewal" as const, subscription_id: sub.id, at: at.toISOString() };
    planned.push({
      request: {
        sub,
        lines: lines.get(sub.id)?.lines ?? [],
        origin: "subscription_recurring",
        period,
        at,
        discount: await periodDiscount(client, sub, period.starts_at),
        onDecline: charge.kind === "renewal" ? "past_due" : "keep",
        purpose: purposeText(charge),
      },
      charge,
    });
  }
  // billSubscriptions answers one bill per request, in their order.
  const answered = await billSubscriptions(
    client,
    planned.map((p) => p.request),
  );
  const billed = planned.map(({ request: { sub }, charge }, i) => {
    const bill = answered[i];
    if (bill === undefined) throw new Error(`billing subscription ${sub.id} answered no transaction`);
    return { sub, charge, ...bill };
  });
  const charges = billed.flatMap(({ sub, transactionId }) =>
    (lines.get(sub.id)?.pendingIds ?? []).map((id) => ({ id, transactionId })),
  );
  if (charges.length > 0) {
    await query(
      `UPDATE subscription_charges c SET transaction_id = x.transaction_id
         FROM unnest($1::text[], $2::text[]) AS x(id, transaction_id) WHERE c.id = x.id`,
      [charges.map((c) => c.id), charges.map((c) => c.transactionId)],
      client,
    );
  }
  for (const { sub, charge, outcome, transactionId } of billed) {
    if (outcome === "billed") await scheduleInvoiceCheck(client, sub);
    else await afterSyncCharge(client, charge, outcome, transactionId);
  }
  return billed.map((b) => b.transactionId);
}

/**
 * The delays, from the failure, before each retry of a past-due subscription's payment
 * (BILLING_DUNNING_SCHEDULE, default 1d,3d,5d,7d: four retries over a week, the API family's
 * "about a week"); when the last fails, BILLING_DUNNING_EXHAUSTED_ACTION (cancel, the default, or
 * pause) ends it.
 */
export function dunningOffsets(): number[] {
  return config.dunning.schedule;
}

/** Makes the subscription past_due after a failed charge at `at`, and schedules the first retry. */
export async function markPastDue(client: pg.PoolClient, subscriptionId: string, at: Date): Promise<void> {
  // Only from active or trialing: one already past due keeps its dunning schedule, and one ended or
  // paused while a charge settled later (a Stripe charge under way) has nothing to dun.
  const first = dunningOffsets()[0];
  await markSubscriptionsPastDue(client, [subscriptionId], {
    nextRetryAt: first === undefined ? null : new Date(at.getTime() + first),
  });
}

/** A manual subscription's engine looks at its unpaid invoices at their earliest due date. */
export async function scheduleInvoiceCheck(client: pg.PoolClient, sub: Pick<SubscriptionRow, "id">): Promise<void> {
  await query(
    `UPDATE subscriptions s SET next_retry_at = (
        -- To the millisecond, as the engine reads times (a JavaScript Date).
        SELECT date_trunc('milliseconds', min(${INVOICE_DUE_AT}))
          FROM transactions t WHERE t.subscription_id = s.id AND t.status = 'billed' AND t.billed_at IS NOT NULL
           AND t.billing_details IS NOT NULL)
      WHERE s.id = $1`,
    [sub.id],
    client,
  );
}

/** Lines for the next renewal (subscription_charges): credits as negative quantities. */
export async function addPendingLines(client: pg.PoolClient, id: string, lines: readonly BillLine[]): Promise<void> {
  await query(
    `INSERT INTO subscription_charges (id, subscription_id, price_id, quantity, price, product, proration)
     SELECT x.id, $1, x.price_id, x.quantity, x.price::json, x.product::json, x.proration::json
       FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[])
         AS x(id, price_id, quantity, price, product, proration)`,
    [
      id,
      lines.map(() => newId("subchg")),
      lines.map((line) => line.price.id),
      lines.map((line) => (line.credit ? -line.quantity : line.quantity)),
      lines.map((line) => storableJson(line.price)),
      lines.map((line) => storableJson(line.product)),
      lines.map((line) =>
        line.proration
          ? storableJson({ rate: line.proration.rate, billing_period: line.proration.billing_period })
          : null,
      ),
    ],
    client,
  );
}
