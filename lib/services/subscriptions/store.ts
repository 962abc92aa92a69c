/**
 * Reading, locking and announcing subscriptions: the pieces every subscription operation uses.
 * An operation locks the row (`lockSubscription`), changes rows with plain SQL, and then writes
 * its events with `emitSubscriptionEvents`, which renders the entity from the rows as they are in
 * the same database transaction (the transactional outbox: the events commit with the change).
 */
import type pg from "pg";
import type { CalendarInterval } from "../../billing/billing-dates.ts";
import { SUBSCRIPTION, SUBSCRIPTION_EVENT_FIELDS } from "../../db/entities/subscription.ts";
import { getJson, jsonRecord, type Queryable, query, type RawJson } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { Subscription } from "../../schemas/subscription.ts";
import type { BillingDetails } from "../../schemas/transaction.ts";

export interface BillingCycle {
  interval: CalendarInterval;
  frequency: number;
}

/** A subscription's row as the operations use it (timestamps as Dates). */
export interface SubscriptionRow {
  id: string;
  status: "active" | "trialing" | "past_due" | "paused" | "canceled";
  customer_id: string;
  address_id: string;
  business_id: string | null;
  currency_code: string;
  collection_mode: "automatic" | "manual";
  billing_details: BillingDetails | null;
  billing_cycle: BillingCycle;
  billing_anchor_at: Date;
  started_at: Date;
  first_billed_at: Date | null;
  next_billed_at: Date | null;
  paused_at: Date | null;
  canceled_at: Date | null;
  current_period_starts_at: Date | null;
  current_period_ends_at: Date | null;
  discount_id: string | null;
  discount_starts_at: Date | null;
  discount_ends_at: Date | null;
  scheduled_change: {
    action: "pause" | "cancel" | "resume";
    effective_at: string;
    resume_at: string | null;
    on_resume?: "start_new_billing_period" | "continue_existing_billing_period";
  } | null;
  payment_method_id: string | null;
  transaction_id: string | null;
  next_retry_at: Date | null;
  retry_count: number;
  next_action_at: Date | null;
  clock_at: Date | null;
}

/** The columns of a SubscriptionRow over the alias `t`. */
export const ROW_COLUMNS = `t.id, t.status, t.customer_id, t.address_id, t.business_id, t.currency_code, t.collection_mode,
  t.billing_details, json_build_object('interval', t.billing_cycle_interval, 'frequency', t.billing_cycle_frequency) AS billing_cycle,
  t.billing_anchor_at, t.started_at, t.first_billed_at, t.next_billed_at, t.paused_at, t.canceled_at,
  t.current_period_starts_at, t.current_period_ends_at, t.discount_id, t.discount_starts_at, t.discount_ends_at,
  t.scheduled_change, t.payment_method_id, t.transaction_id, t.next_retry_at, t.retry_count, t.next_action_at, t.clock_at`;

/** The subscription's row, locked until the change commits (concurrent changes take turns). */
export async function lockSubscription(client: pg.PoolClient, id: string): Promise<SubscriptionRow> {
  const [row] = await query<SubscriptionRow>(
    `SELECT ${ROW_COLUMNS} FROM subscriptions t WHERE t.id = $1 FOR UPDATE`,
    [id],
    client,
  );
  if (!row) throw notFound(id);
  return row;
}

/** The row without a lock (previews). */
export async function readSubscription(on: Queryable, id: string): Promise<SubscriptionRow> {
  const [row] = await query<SubscriptionRow>(`SELECT ${ROW_COLUMNS} FROM subscriptions t WHERE t.id = $1`, [id], on);
  if (!row) throw notFound(id);
  return row;
}

/** One recurring item of a subscription (snapshots of its price and product). */
export interface SubscriptionItemRow {
  id: string;
  price_id: string;
  quantity: number;
  price: Record<string, unknown> & { id: string; billing_cycle: BillingCycle | null };
  product: Record<string, unknown> & { id: string };
  created_at: Date;
  previously_billed_at: Date | null;
  trial_starts_at: Date | null;
  trial_ends_at: Date | null;
}

export async function subscriptionItems(on: Queryable, subscriptionId: string): Promise<SubscriptionItemRow[]> {
  return (await subscriptionItemsOf(on, [subscriptionId])).get(subscriptionId) ?? [];
}

/** The items of each of `subscriptionIds` (in the subscription's order), in one query. */
export async function subscriptionItemsOf(
  on: Queryable,
  subscriptionIds: readonly string[],
): Promise<Map<string, SubscriptionItemRow[]>> {
  const rows = await query<SubscriptionItemRow & { subscription_id: string }>(
    `SELECT subscription_id, id, price_id, quantity, price, product, created_at, previously_billed_at, trial_starts_at,
            trial_ends_at
       FROM subscription_items WHERE subscription_id = ANY($1) ORDER BY subscription_id, position`,
    [subscriptionIds],
    on,
  );
  const items = new Map<string, SubscriptionItemRow[]>(subscriptionIds.map((id) => [id, []]));
  for (const { subscription_id, ...item } of rows) items.get(subscription_id)?.push(item);
  return items;
}

/**
 * Writes the events `types` (in order) of subscription `id` as it is now in this database
 * transaction. `transactionId` adds `transaction_id` to the payload (subscription.created does).
 */
export async function emitSubscriptionEvents(
  client: Queryable,
  id: string,
  types: readonly string[],
  transactionId?: string,
): Promise<void> {
  await emitEventsOf(client, [{ id, types, transactionId }]);
}

/**
 * emitSubscriptionEvents for many subscriptions in one statement (a batch of renewals), which also
 * sets their updated_at: the events render each row as that UPDATE returns it, and its items as
 * the earlier statements of this database transaction left them. `touched`: the caller's own
 * UPDATE of these rows already set updated_at (a row version fewer per subscription).
 */
export async function emitEventsOf(
  client: Queryable,
  emits: readonly { id: string; types: readonly string[]; transactionId?: string }[],
  touched = false,
): Promise<void> {
  const events = emits.flatMap(({ id, types, transactionId }) =>
    types.map((type) => ({ id: newId("evt"), subscriptionId: id, type, transactionId: transactionId ?? null })),
  );
  if (events.length === 0) return;
  const withTransaction = events.some((e) => e.transactionId !== null);
  const fields = withTransaction
    ? [...SUBSCRIPTION_EVENT_FIELDS, ["transaction_id", "x.transaction_id"] as const]
    : SUBSCRIPTION_EVENT_FIELDS;
  await query(
    `WITH t AS ${touched ? "(SELECT * FROM subscriptions WHERE id = ANY($2))" : "(UPDATE subscriptions t SET updated_at = now() WHERE t.id = ANY($2) RETURNING t.*)"}
     INSERT INTO events (id, event_type, entity_id, data)
     SELECT x.id, x.event_type, t.id, ${jsonRecord(fields)}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(id, subscription_id, event_type, transaction_id)
       JOIN t ON t.id = x.subscription_id
      ORDER BY x.id`,
    [
      events.map((e) => e.id),
      events.map((e) => e.subscriptionId),
      events.map((e) => e.type),
      events.map((e) => e.transactionId),
    ],
    client,
  );
}

/** The subscription's API JSON as it is in this database transaction (without includes: get.ts adds them). */
export async function subscriptionJson(on: Queryable, id: string): Promise<RawJson<Subscription>> {
  const json = await getJson(SUBSCRIPTION, "t.id = $1", [id], on);
  if (!json) throw notFound(id);
  return json;
}
