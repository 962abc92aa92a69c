/**
 * The moves of a subscription when they take effect: resume and the bills of its periods here;
 * cancel, pause and past_due in stops.ts (below the charge outcomes, which apply them too). The API
 * applies them "immediately" (lib/services/subscriptions/pause.ts,
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
import { type Queryable, query } from "../../db/sql.ts";
import type { OnResume } from "../../schemas/subscription.ts";
import { INVOICE_DUE_AT } from "../payments/past-due.ts";
import { type BillLine, type BillRequest, billSubscriptions, periodDiscount } from "./billing.ts";
import { afterSyncCharge, type ChargePurpose, purposeText } from "./charge-outcomes.ts";
import { markSubscriptionResumed } from "./moves.ts";
import type { StoredProration } from "./stops.ts";
import { type SubscriptionRow, subscriptionItemsOf } from "./store.ts";

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
