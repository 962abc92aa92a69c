/**
 * Customers' saved payment methods (decision: saved-cards-for-subscriptions): cards saved at the hosted checkout when a
 * subscription is bought (origin `subscription`), listed, read and deleted through
 * /customers/{customer_id}/payment-methods. Renewals charge the subscription's saved card.
 *
 * Sandbox: what later charges of a saved card do is decided by the test card that saved it
 * (`behavior`): 4000 0000 0000 0341 pays at checkout and is declined on every later charge (to try
 * dunning); every other card that paid keeps paying.
 */
import type pg from "pg";
import type { CardDetails } from "../billing/payments.ts";
import { PAYMENT_METHOD } from "../db/entities/payment-method.ts";
import {
  getJson,
  insertJson,
  type JsonPage,
  listJson,
  Params,
  type Queryable,
  query,
  type RawJson,
  sqlTransaction,
  storableJson,
} from "../db/sql.ts";
import { notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type { ListPaymentMethodsQuery, PaymentMethod } from "../schemas/payment-method.ts";

export type CardBehavior = "pays" | "declines_renewals";

/** Saves a card for `customerId` with its `payment_method.saved` event; returns its ID. */
export async function saveCard(
  client: pg.PoolClient,
  customerId: string,
  addressId: string,
  card: CardDetails,
  behavior: CardBehavior,
  origin: "saved_during_purchase" | "subscription" = "subscription",
): Promise<string> {
  const id = newId("paymtd");
  await insertJson(
    PAYMENT_METHOD,
    {
      id,
      customer_id: customerId,
      address_id: addressId,
      type: "card",
      card: storableJson(card),
      origin,
      behavior,
    },
    "payment_method.saved",
    client,
  );
  return id;
}

/**
 * Saves (or finds) a method a processor holds (Stripe's pm_, saved for off-session use by the
 * checkout), with `payment_method.saved` when new; returns our `paymtd_` ID. The processor's ID is
 * unique: the same card settled twice is saved once.
 */
export async function saveProcessorMethod(
  client: pg.PoolClient,
  method: {
    customerId: string;
    addressId: string;
    card: CardDetails | null;
    processor: "stripe";
    processorAccount: string;
    reference: string;
  },
): Promise<string> {
  const [existing] = await query<{ id: string }>(
    "SELECT id FROM payment_methods WHERE processor_reference = $1",
    [method.reference],
    client,
  );
  if (existing) return existing.id;
  const id = newId("paymtd");
  await insertJson(
    PAYMENT_METHOD,
    {
      id,
      customer_id: method.customerId,
      address_id: method.addressId,
      type: "card",
      card: method.card ? storableJson(method.card) : null,
      origin: "subscription",
      behavior: "pays",
      processor: method.processor,
      processor_account: method.processorAccount,
      processor_reference: method.reference,
    },
    "payment_method.saved",
    client,
  );
  return id;
}

/** A saved method as a charge needs it; `processor` null for a sandbox test card. */
export interface SavedMethod {
  id: string;
  card: CardDetails;
  behavior: CardBehavior;
  processor: "stripe" | null;
  processor_account: string | null;
  processor_reference: string | null;
}

/** The saved card a charge uses, or null when it was deleted. */
export async function savedCard(on: Queryable, id: string | null): Promise<SavedMethod | null> {
  if (!id) return null;
  return (await savedCards(on, [id])).get(id) ?? null;
}

/** The saved cards of `ids` by ID (a deleted one is missing), in one query. */
export async function savedCards(on: Queryable, ids: readonly (string | null)[]): Promise<Map<string, SavedMethod>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await query<SavedMethod>(
    "SELECT id, card, behavior, processor, processor_account, processor_reference FROM payment_methods WHERE id = ANY($1)",
    [wanted],
    on,
  );
  return new Map(rows.map((row) => [row.id, row]));
}

async function requireCustomer(customerId: string): Promise<void> {
  const rows = await query("SELECT 1 FROM customers WHERE id = $1", [customerId]);
  if (rows.length === 0) throw notFound(customerId);
}

/**
 * A customer's saved methods, or (customerId null: GET /payment-methods, ours, the dashboard's
 * search by a card's last 4) those of every customer.
 */
export async function listPaymentMethods(customerId: string | null, q: ListPaymentMethodsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (customerId !== null) {
    await requireCustomer(customerId);
    filters.push(`t.customer_id = ${params.add(customerId)}`);
  }
  if (q.last4) filters.push(`t.card->>'last4' = ${params.add(q.last4)}`);
  if (q.address_id) filters.push(params.oneOf("t.address_id", q.address_id));
  // Every saved method here is a card the hosted checkout takes.
  if (q.supports_checkout === false) filters.push("FALSE");
  return listJson(PAYMENT_METHOD, { filters, params, orderBy: q.order_by, after: q.after, perPage: q.per_page });
}

export async function getPaymentMethod(customerId: string, id: string): Promise<RawJson<PaymentMethod>> {
  const json = await getJson(PAYMENT_METHOD, "t.id = $1 AND t.customer_id = $2", [id, customerId]);
  if (!json) throw notFound(id);
  return json;
}

/**
 * Deletes a saved payment method for good, with `payment_method.deleted` (deletion_reason `api`).
 * Subscriptions that charged it have none afterwards: their renewals fail until the customer
 * saves another card (the update-payment-method checkout).
 */
export async function deletePaymentMethod(customerId: string, id: string): Promise<void> {
  const deleted = await sqlTransaction((client) =>
    deleteMethods(client, "t.id = $1 AND t.customer_id = $2", [id, customerId]),
  );
  if (deleted.length === 0) throw notFound(id);
}

/**
 * Deletes the saved method a processor holds as `reference` (Stripe's pm_, detached in Stripe:
 * removed by the customer or the merchant there), as deletePaymentMethod does. Returns our
 * `paymtd_` ID, or null when no saved method has it.
 */
export async function deleteProcessorMethod(reference: string): Promise<string | null> {
  const deleted = await sqlTransaction((client) => deleteMethods(client, "t.processor_reference = $1", [reference]));
  return deleted[0] ?? null;
}

/**
 * Deletes the methods `where` selects (row `t`; its values $1, $2…) with their `payment_method.deleted`
 * events (deletion_reason `api`: the family's only other reason, `replaced_by_newer_version`, is
 * about a card saved again) and takes them off the subscriptions that charged them.
 */
async function deleteMethods(client: pg.PoolClient, where: string, values: unknown[]): Promise<string[]> {
  const fields = PAYMENT_METHOD.fields.map(([name, expr]) => `${expr} AS "${name}"`).join(", ");
  const eventParam = `$${values.length + 1}`;
  const rows = await query<{ id: string }>(
    `WITH d AS (DELETE FROM payment_methods t WHERE ${where} RETURNING t.*),
          o AS (SELECT d.id, (SELECT row_to_json(r) FROM (SELECT ${fields}, 'api' AS deletion_reason FROM d t) r) AS j FROM d)
     INSERT INTO events (id, event_type, entity_id, data) SELECT ${eventParam}, 'payment_method.deleted', o.id, o.j FROM o RETURNING entity_id AS id`,
    [...values, newId("evt")],
    client,
  );
  const ids = rows.map((row) => row.id);
  if (ids.length > 0) {
    await query("UPDATE subscriptions SET payment_method_id = NULL WHERE payment_method_id = ANY($1)", [ids], client);
  }
  return ids;
}

/**
 * A processor's new details of a saved card (Stripe's payment_method.updated: a new expiry, the
 * card updater's new number): brand, last 4 and expiry written over ours. The API family has no
 * event for a changed saved method, so none is written; `updated_at` moves. Returns our ID or null.
 */
export async function updateProcessorMethod(reference: string, card: CardDetails): Promise<string | null> {
  const [row] = await query<{ id: string }>(
    `UPDATE payment_methods
        SET card = json_build_object('type', $2::text, 'last4', $3::text, 'expiry_month', $4::int,
                                     'expiry_year', $5::int, 'cardholder_name', coalesce(card->>'cardholder_name', $6::text)),
            updated_at = now()
      WHERE processor_reference = $1
        AND (card IS NULL OR card->>'type' IS DISTINCT FROM $2 OR card->>'last4' IS DISTINCT FROM $3
             OR (card->>'expiry_month')::int IS DISTINCT FROM $4 OR (card->>'expiry_year')::int IS DISTINCT FROM $5)
      RETURNING id`,
    [reference, card.type, card.last4, card.expiry_month, card.expiry_year, card.cardholder_name],
  );
  return row?.id ?? null;
}
