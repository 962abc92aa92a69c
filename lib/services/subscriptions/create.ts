/**
 * How a subscription comes to be (decision: subscription-from-recurring-items): from a transaction with recurring items,
 * in the database transaction that
 * - completes it (automatic collection, paid at checkout): status `active`, or `trialing` when its
 *   prices have a trial period, with the card used saved as the payment method renewals charge;
 * - bills it (manual collection, the invoice issued): status `active` (or `trialing`), collected
 *   by invoices.
 * The transaction gets its `subscription_id` and, unless the request gave one, its
 * `billing_period` (the first period, or the trial).
 *
 * Decisions (the sources say nothing):
 * - Only the transaction's recurring items (prices with a billing cycle) become subscription items;
 *   one-time items are billed once, by that transaction. Every recurring item of a transaction must
 *   share one billing cycle and one trial period (checked when the transaction is created or
 *   changed: lib/services/transactions/rules.ts), so the first recurring item's cycle is the
 *   subscription's.
 * - A discount with `recur` carries over to the subscription, from its start; with
 *   `maximum_recurring_intervals` N it ends with the N-th renewal's period (`discount.ends_at`),
 *   without `recur` it is used by the first transaction only.
 */
import type pg from "pg";
import { addInterval, type CalendarInterval } from "../../billing/billing-dates.ts";
import { invoiceDueDate } from "../../billing/payments.ts";
import { query, storableJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import { emitSubscriptionEvents } from "./store.ts";

interface SourceTransaction {
  id: string;
  customer_id: string | null;
  address_id: string | null;
  business_id: string | null;
  currency_code: string;
  collection_mode: "automatic" | "manual";
  billing_details: unknown;
  discount_id: string | null;
  subscription_id: string | null;
  billing_period_starts_at: Date | null;
  custom_data: unknown;
}

interface Duration {
  interval: CalendarInterval;
  frequency: number;
}

interface SourceItem {
  price_id: string;
  quantity: number;
  price: { billing_cycle: Duration | null; trial_period: Duration | null } & Record<string, unknown>;
  product: Record<string, unknown>;
}

export interface CreatedSubscription {
  id: string;
  status: "active" | "trialing";
  periodStartsAt: Date;
  periodEndsAt: Date;
}

/**
 * Creates the subscription of transaction `transactionId` (see the top of this file), as of `at`,
 * with `paymentMethodId` (automatic) as the card renewals charge. Returns null when the transaction
 * has no recurring item or already belongs to a subscription. Writes `subscription.created` (with
 * `transaction_id`) and `subscription.activated` or `.trialing`; the caller then sets the
 * transaction's `subscription_id` and `billing_period` (`linkTransaction`), with its own event.
 */
export async function createFromTransaction(
  client: pg.PoolClient,
  transactionId: string,
  at: Date,
  paymentMethodId: string | null,
): Promise<CreatedSubscription | null> {
  const [txn] = await query<SourceTransaction>(
    `SELECT id, customer_id, address_id, business_id, currency_code, collection_mode, billing_details, discount_id,
            subscription_id, billing_period_starts_at, custom_data
       FROM transactions WHERE id = $1`,
    [transactionId],
    client,
  );
  if (!txn || txn.subscription_id || !txn.customer_id || !txn.address_id) return null;
  const items = (
    await query<SourceItem>(
      "SELECT price_id, quantity, price, product FROM transaction_items WHERE transaction_id = $1 AND quantity > 0 ORDER BY position",
      [transactionId],
      client,
    )
  ).filter((item) => item.price.billing_cycle !== null);
  const [first] = items;
  if (!first) return null;

  const cycle = first.price.billing_cycle as Duration;
  const trial = first.price.trial_period;
  const trialEndsAt = trial ? addInterval(at, trial.interval, trial.frequency) : null;
  const anchor = trialEndsAt ?? at;
  const periodStartsAt = at;
  const periodEndsAt = trialEndsAt ?? addInterval(anchor, cycle.interval, cycle.frequency);
  const status = trialEndsAt ? "trialing" : "active";

  let discountEndsAt: Date | null = null;
  let discountId: string | null = null;
  if (txn.discount_id) {
    const [discount] = await query<{ recur: boolean; maximum_recurring_intervals: number | null }>(
      "SELECT recur, maximum_recurring_intervals FROM discounts WHERE id = $1",
      [txn.discount_id],
      client,
    );
    if (discount?.recur) {
      discountId = txn.discount_id;
      const intervals = discount.maximum_recurring_intervals;
      // The N-th renewal bills the period that ends N+1 cycles after the anchor (a trial bills nothing).
      if (intervals !== null) {
        discountEndsAt = addInterval(anchor, cycle.interval, cycle.frequency * (intervals + (trialEndsAt ? 0 : 1)));
      }
    }
  }

  const id = newId("sub");
  await query(
    `INSERT INTO subscriptions (id, status, customer_id, address_id, business_id, currency_code, collection_mode,
       billing_details, billing_cycle_interval, billing_cycle_frequency, billing_anchor_at, started_at, first_billed_at,
       next_billed_at, current_period_starts_at, current_period_ends_at, discount_id, discount_starts_at, discount_ends_at,
       custom_data, payment_method_id, transaction_id, next_retry_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20::jsonb, $21, $22, $23)`,
    [
      id,
      status,
      txn.customer_id,
      txn.address_id,
      txn.business_id,
      txn.currency_code,
      txn.collection_mode,
      txn.billing_details === null ? null : storableJson(txn.billing_details),
      cycle.interval,
      cycle.frequency,
      anchor,
      at,
      trialEndsAt ? null : at,
      periodEndsAt,
      periodStartsAt,
      periodEndsAt,
      discountId,
      discountId ? at : null,
      discountEndsAt,
      txn.custom_data === null ? null : storableJson(txn.custom_data),
      txn.collection_mode === "automatic" ? paymentMethodId : null,
      transactionId,
      // A manual subscription's engine checks its first invoice at the due date (past_due if unpaid).
      txn.collection_mode === "manual" ? invoiceDueDate(at, txn.billing_details) : null,
    ],
    client,
  );
  await query(
    `INSERT INTO subscription_items (id, subscription_id, position, price_id, status, quantity, price, product,
       previously_billed_at, trial_starts_at, trial_ends_at, created_at, updated_at)
     SELECT x.id, $1, x.position - 1, x.price_id, $2, x.quantity, x.price::json, x.product::json, $3, $4, $5, $6, $6
       FROM unnest($7::text[], $8::text[], $9::int[], $10::text[], $11::text[]) WITH ORDINALITY
         AS x(id, price_id, quantity, price, product, position)`,
    [
      id,
      status,
      trialEndsAt ? null : at,
      trialEndsAt ? at : null,
      trialEndsAt,
      at,
      items.map(() => newId("subitm")),
      items.map((item) => item.price_id),
      items.map((item) => item.quantity),
      items.map((item) => storableJson(item.price)),
      items.map((item) => storableJson(item.product)),
    ],
    client,
  );
  await emitSubscriptionEvents(
    client,
    id,
    ["subscription.created", status === "trialing" ? "subscription.trialing" : "subscription.activated"],
    transactionId,
  );
  return { id, status, periodStartsAt, periodEndsAt };
}

/**
 * Sets the transaction's `subscription_id` and, when it has none, its `billing_period`: the
 * columns the caller's next transaction update writes (one statement, one event).
 */
export function linkColumns(created: CreatedSubscription, billingPeriodSet: boolean): Record<string, unknown> {
  return {
    subscription_id: created.id,
    ...(billingPeriodSet
      ? {}
      : { billing_period_starts_at: created.periodStartsAt, billing_period_ends_at: created.periodEndsAt }),
  };
}
