/**
 * Reading, locking and announcing subscriptions: the pieces every subscription operation uses.
 * An operation locks the row (`lockSubscription`), changes rows with plain SQL, and then writes
 * its events with `emitSubscriptionEvents`, which renders the entity from the rows as they are in
 * the same database transaction (the transactional outbox: the events commit with the change).
 */
import type pg from "pg";
import type { CalendarInterval } from "../../billing/billing-dates.ts";
import { SUBSCRIPTION, SUBSCRIPTION_EVENT_FIELDS } from "../../db/entities/subscription.ts";
import { getJson, jsonRecord, Params, type Queryable, query, type RawJson } from "../../db/sql.ts";
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
 * transaction (its items as the earlier statements left them), and sets its updated_at.
 * `transactionId` adds `transaction_id` to the payload (subscription.created does). A status move
 * writes its events with the move itself (moves.ts).
 */
export async function emitSubscriptionEvents(
  client: Queryable,
  id: string,
  types: readonly string[],
  transactionId?: string,
): Promise<void> {
  await writeWithEvents(
    client,
    [{ id, types, transactionId }],
    (ids) => `UPDATE subscriptions t SET updated_at = now() WHERE t.id = ANY(${ids}) RETURNING t.*`,
  );
}

/** The events `types` (in order) of subscription `id`; `transactionId` adds `transaction_id` to their payload. */
export interface SubscriptionEvents {
  id: string;
  types: readonly string[];
  transactionId?: string;
}

/**
 * One statement: `rows` (SQL given the parameter of the subscriptions' IDs, adding its own
 * parameters to `params`) returns subscription rows, typically an UPDATE ... RETURNING t.*, and
 * each row it returns gets its events of `emits`, rendered from the row as returned (the
 * transactional outbox). Returns the IDs of the rows `rows` returned that have events.
 */
export async function writeWithEvents(
  client: Queryable,
  emits: readonly SubscriptionEvents[],
  rows: (ids: string, params: Params) => string,
  params = new Params(),
): Promise<string[]> {
  const events = emits.flatMap(({ id, types, transactionId }) =>
    types.map((type) => ({ id: newId("evt"), subscriptionId: id, type, transactionId: transactionId ?? null })),
  );
  if (events.length === 0) return [];
  const withTransaction = events.some((e) => e.transactionId !== null);
  const fields = withTransaction
    ? [...SUBSCRIPTION_EVENT_FIELDS, ["transaction_id", "x.transaction_id"] as const]
    : SUBSCRIPTION_EVENT_FIELDS;
  const eventIds = params.add(events.map((e) => e.id));
  const ids = params.add(events.map((e) => e.subscriptionId));
  const types = params.add(events.map((e) => e.type));
  const transactionIds = params.add(events.map((e) => e.transactionId));
  const written = await query<{ entity_id: string }>(
    `WITH t AS (${rows(ids, params)})
     INSERT INTO events (id, event_type, entity_id, data)
     SELECT x.id, x.event_type, t.id, ${jsonRecord(fields)}
       FROM unnest(${eventIds}::text[], ${ids}::text[], ${types}::text[], ${transactionIds}::text[])
              AS x(id, subscription_id, event_type, transaction_id)
       JOIN t ON t.id = x.subscription_id
      ORDER BY x.id
     RETURNING entity_id`,
    params.values,
    client,
  );
  return [...new Set(written.map((row) => row.entity_id))];
}

/** The subscription's API JSON as it is in this database transaction (without includes: get.ts adds them). */
export async function subscriptionJson(on: Queryable, id: string): Promise<RawJson<Subscription>> {
  const json = await getJson(SUBSCRIPTION, "t.id = $1", [id], on);
  if (!json) throw notFound(id);
  return json;
}
