/**
 * The transaction entity (spec: Transaction): its API fields from the `transactions` and
 * `transaction_items` rows, in the spec's field order, and the entities `include` adds, once, for
 * every read, write and event.
 *
 * The included entities' definitions still live in their services (addresses.ts, customers.ts,
 * ...): they move here, beside this one, when those domains are split the same way.
 */
import { config } from "../../config.ts";
import type { Transaction, TransactionInclude } from "../../schemas/transaction.ts";
import { type EntityTable, jsonRecord, relatedJson, sqlText, ts } from "../sql.ts";
import { ADDRESS } from "./address.ts";
import { ADJUSTMENT, ADJUSTMENTS_TOTALS } from "./adjustment.ts";
import { billingDetailsJson } from "./billing-details.ts";
import { BUSINESS } from "./business.ts";
import { CUSTOMER } from "./customer.ts";
import { DISCOUNT } from "./discount.ts";

const BILLING_PERIOD = `CASE WHEN t.billing_period_starts_at IS NULL THEN NULL ELSE ${jsonRecord([
  ["starts_at", ts("t.billing_period_starts_at")],
  ["ends_at", ts("t.billing_period_ends_at")],
])} END`;

/** `items`: each with the price as it was when added (spec: the full price object per item). */
const ITEMS = `(SELECT coalesce(json_agg(${jsonRecord([
  ["price_id", "i.price_id"],
  ["price", "i.price"],
  ["quantity", "i.quantity"],
  ["proration", "i.proration"],
])} ORDER BY i.position), '[]'::json) FROM transaction_items i WHERE i.transaction_id = t.id)`;

/**
 * `payments`, in their stored order (newest first), each in the API family's shape (lib/billing
 * payments.ts Payment), rendered field by field from the stored JSON so that an attempt stored
 * before a field existed has it too: `payment_method_id` (the family's since 2024-01: the saved
 * method's `paymtd_` ID, which `stored_payment_method_id` holds then, else null),
 * `method_details.underlying_details` (null), and the family's `not_enough_balance` for the
 * sandbox's former `insufficient_funds`. `reference` (ours, offline payments) only where stored.
 */
const PAYMENT = "p.v";
const PAYMENTS = `(SELECT coalesce(json_agg(${jsonRecord([
  ["payment_attempt_id", `${PAYMENT}->'payment_attempt_id'`],
  ["stored_payment_method_id", `${PAYMENT}->'stored_payment_method_id'`],
  [
    "payment_method_id",
    `coalesce(${PAYMENT}->'payment_method_id', CASE WHEN left(${PAYMENT}->>'stored_payment_method_id', 7) = 'paymtd_'
      THEN ${PAYMENT}->'stored_payment_method_id' ELSE 'null'::json END)`,
  ],
  ["amount", `${PAYMENT}->'amount'`],
  ["status", `${PAYMENT}->'status'`],
  [
    "error_code",
    `CASE WHEN ${PAYMENT}->>'error_code' = 'insufficient_funds' THEN '"not_enough_balance"'::json
      ELSE ${PAYMENT}->'error_code' END`,
  ],
  [
    "method_details",
    jsonRecord(
      [
        ["type", `${PAYMENT}->'method_details'->'type'`],
        ["underlying_details", `coalesce(${PAYMENT}->'method_details'->'underlying_details', 'null'::json)`],
        ["card", `${PAYMENT}->'method_details'->'card'`],
      ],
      [["reference", `${PAYMENT}->'method_details'->'reference'`]],
    ),
  ],
  ["created_at", `${PAYMENT}->'created_at'`],
  ["captured_at", `${PAYMENT}->'captured_at'`],
])} ORDER BY p.i), '[]'::json) FROM json_array_elements(t.payments) WITH ORDINALITY p(v, i))`;

/** Our hosted checkout's address for a transaction, before its ID (app/checkout reads `_ptxn`). */
export function checkoutUrlPrefix(): string {
  return `${config.publicUrl}/checkout?_ptxn=`;
}

/** Our hosted checkout page of transaction `id`: the one place its address is written. */
export function checkoutUrl(id: string): string {
  return `${checkoutUrlPrefix()}${encodeURIComponent(id)}`;
}

/**
 * SQL: whether transaction `alias` has an item with a recurring price (completing it starts a
 * subscription). A scalar subquery through the items' index, never an EXISTS a batch can hash into
 * a scan of every item (lib/services/payments/completion.ts Locked.recurring).
 */
export function recurringItemsSql(alias: string): string {
  return `coalesce((SELECT bool_or(i.quantity > 0 AND json_typeof(i.price->'billing_cycle') = 'object')
                      FROM transaction_items i WHERE i.transaction_id = ${alias}.id), false)`;
}

/** Whether the hosted checkout serves the transaction (SQL twin of lib/billing checkoutEnabled). */
const CHECKOUT_ENABLED = `(t.collection_mode = 'automatic'
    OR coalesce((t.billing_details->>'enable_checkout')::boolean, false))`;

/**
 * `checkout`: the URL the request gave (stored, with `_ptxn` appended), or else, for a transaction
 * the hosted checkout can serve (automatic collection, or manual with billing_details.enable_checkout),
 * our hosted checkout page `${PUBLIC_URL}/checkout?_ptxn=<id>` (app/checkout), the way the API
 * family appends `_ptxn` to the default payment link. Built when read, not stored: it follows a
 * change of collection mode or of enable_checkout, and a stored URL always wins.
 */
const CHECKOUT = `coalesce(t.checkout, CASE WHEN ${CHECKOUT_ENABLED}
  THEN json_build_object('url', ${sqlText(checkoutUrlPrefix())} || t.id) END)`;

/** The transaction's API shape (spec: Transaction), in the spec's field order. */
export const TRANSACTION: EntityTable<Transaction> = {
  table: "transactions",
  fields: [
    ["id", "t.id"],
    ["status", "t.status"],
    ["customer_id", "t.customer_id"],
    ["address_id", "t.address_id"],
    ["business_id", "t.business_id"],
    ["custom_data", "t.custom_data"],
    ["currency_code", "t.currency_code"],
    ["origin", "t.origin"],
    ["subscription_id", "t.subscription_id"],
    ["invoice_id", "t.invoice_id"],
    ["invoice_number", "t.invoice_number"],
    ["collection_mode", "t.collection_mode"],
    ["discount_id", "t.discount_id"],
    ["billing_details", billingDetailsJson("t.billing_details")],
    ["billing_period", BILLING_PERIOD],
    ["items", ITEMS],
    ["details", "t.details"],
    ["payments", PAYMENTS],
    ["checkout", CHECKOUT],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
    ["billed_at", ts("t.billed_at")],
    ["revised_at", ts("t.revised_at")],
  ],
  // Never NULL (keyset pagination compares values): not yet billed sorts first (an index by hand).
  orderColumns: {
    created_at: "t.created_at",
    updated_at: "t.updated_at",
    billed_at: "coalesce(t.billed_at, '-infinity'::timestamptz)",
  },
};

/**
 * What `include` adds, after the transaction's own fields, each as an `optional` field: the family
 * returns an included customer, address, business and discount only "when the transaction has
 * one", and adjustments only when there are some, so those keys are left out when there is none
 * (SQL NULL) rather than sent as null or []. The adjustments' totals and the payment methods are
 * never NULL: always there when asked for.
 */
const INCLUDED: Record<string, string> = {
  address: `coalesce(t.address_snapshot, ${relatedJson(ADDRESS, "t.id = parent.address_id", false)})`,
  adjustments: `CASE WHEN EXISTS (SELECT 1 FROM adjustments a WHERE a.transaction_id = t.id)
    THEN ${relatedJson(ADJUSTMENT, "t.transaction_id = parent.id", true)} END`,
  adjustments_totals: ADJUSTMENTS_TOTALS,
  business: `coalesce(t.business_snapshot, ${relatedJson(BUSINESS, "t.id = parent.business_id", false)})`,
  customer: `coalesce(t.customer_snapshot, ${relatedJson(CUSTOMER, "t.id = parent.customer_id", false)})`,
  discount: relatedJson(DISCOUNT, "t.id = parent.discount_id", false),
  available_payment_methods: `CASE WHEN ${CHECKOUT_ENABLED}
    THEN '["card"]'::json ELSE '[]'::json END`,
};
const INCLUDE_ORDER = Object.entries(INCLUDED);

const entities = new Map<string, EntityTable<Transaction>>();

/** The transaction entity with the fields `include` asks for (`adjustment` is `adjustments`). */
export function transactionEntity(include?: readonly TransactionInclude[]): EntityTable<Transaction> {
  if (!include?.length) return TRANSACTION;
  const asked = new Set<string>(include.map((name) => (name === "adjustment" ? "adjustments" : name)));
  const fields = INCLUDE_ORDER.filter(([name]) => asked.has(name));
  const key = fields.map(([name]) => name).join(",");
  let entity = entities.get(key);
  if (!entity) {
    entity = { ...TRANSACTION, optional: fields };
    entities.set(key, entity);
  }
  return entity;
}
