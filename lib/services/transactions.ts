/**
 * Transactions (spec: Transaction, States and transitions, PATCH /transactions/{transaction_id}):
 * create, get, list, update, with the state machine and the events of every change.
 *
 * States. `draft` becomes `ready` automatically once the transaction has items, a customer and an
 * address: when it is created (unless the request asks for `draft`, which holds it as a draft) and
 * on any later PATCH. A PATCH may send `status` `billed` (only from `ready`: assigns the invoice
 * number, `invoice_id` and `billed_at`) or `canceled` (from `draft`, `ready` or `billed`); any
 * other move is 400 `transaction_invalid_status_change` naming it, as the API family does. Only
 * `draft` and `ready` transactions can be edited: anything else sent to a billed, completed,
 * canceled, paid or past-due transaction is 400 `transaction_immutable` (a billed one accepts
 * exactly `{"status": "canceled"}`).
 *
 * Events (transactional outbox: in the statement that writes the row). A create emits
 * `transaction.created` (and `transaction.ready` when created ready). Every PATCH emits
 * `transaction.updated`, and a PATCH that changes the status emits the status's event after it
 * (`transaction.ready`, `.billed`, `.canceled`) with the same data, as the API family does; the
 * simulation scenarios (lib/events/simulation-types.ts) emit them in the same order.
 *
 * Totals. `details` is computed by the money engine (lib/billing/totals.ts) and stored whenever the
 * items, the customer, the address, the discount or the currency change, so a later change of the
 * catalogue or of the tax rates does not move the totals of an existing transaction by itself.
 *
 * Discount redemptions (spec: Discount, redemption rules). A discount's `times_used` counts a
 * redemption when the transaction is billed (the invoice is issued; the completion of an
 * automatically-collected transaction is the other moment, with payments), under a lock of the
 * discount's row that also re-checks `usage_limit`; canceling a billed transaction gives the
 * redemption back (the invoice is void). Applying a discount to a draft or ready transaction only
 * checks that it can still be redeemed.
 */

import type pg from "pg";
import { EDITABLE_STATUSES, isAllowedMove } from "../billing/transaction-states.ts";
import { config } from "../config.ts";
import { ADDRESS } from "../db/entities/address.ts";
import { ADJUSTMENT, ADJUSTMENTS_TOTALS } from "../db/entities/adjustment.ts";
import { BUSINESS } from "../db/entities/business.ts";
import { CUSTOMER } from "../db/entities/customer.ts";
import { DISCOUNT } from "../db/entities/discount.ts";
import {
  type EntityTable,
  getJson,
  insertJson,
  type JsonPage,
  jsonb,
  jsonRecord,
  listJson,
  Params,
  query,
  type RawJson,
  relatedJson,
  sqlText,
  sqlTransaction,
  storableJson,
  ts,
  updateJson,
} from "../db/sql.ts";
import { ApiError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import {
  type BillingDetails,
  type BillingDetailsInput,
  type CheckoutInput,
  type CollectionMode,
  type CreateTransactionInput,
  type ListTransactionsQuery,
  MANUAL_CURRENCIES,
  type NonCatalogueDiscountInput,
  RANGE_OPERATORS,
  rangeFilters,
  type Transaction,
  type TransactionInclude,
  type TransactionStatus,
  type UpdateTransactionInput,
} from "../schemas/transaction.ts";
import { nextInvoiceNumber } from "./invoice-numbers.ts";
import { createFromTransaction, linkColumns } from "./subscriptions/create.ts";
import { defaultCurrency, pricedIn, taxContext, transactionDetails } from "./transaction-details.ts";
import { type ResolvedItem, resolveItems, saveNewPrices, storedItems, writeItems } from "./transaction-items.ts";
import {
  type CustomerRef,
  type DiscountRef,
  discountCurrencyProblem,
  loadAddress,
  loadBusiness,
  loadCustomer,
  loadDiscount,
  Problems,
  storedDiscount,
} from "./transaction-references.ts";

// ---------------------------------------------------------------------------------------------
// The entity

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
  THEN json_build_object('url', ${sqlText(`${config.publicUrl}/checkout?_ptxn=`)} || t.id) END)`;

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
    ["billing_details", "t.billing_details"],
    ["billing_period", BILLING_PERIOD],
    ["items", ITEMS],
    ["details", "t.details"],
    ["payments", "t.payments"],
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

const INCLUDED = {
  address: `coalesce(t.address_snapshot, ${relatedJson(ADDRESS, "t.id = parent.address_id", false)})`,
  adjustments: relatedJson(ADJUSTMENT, "t.transaction_id = parent.id", true),
  adjustments_totals: ADJUSTMENTS_TOTALS,
  business: `coalesce(t.business_snapshot, ${relatedJson(BUSINESS, "t.id = parent.business_id", false)})`,
  customer: `coalesce(t.customer_snapshot, ${relatedJson(CUSTOMER, "t.id = parent.customer_id", false)})`,
  discount: relatedJson(DISCOUNT, "t.id = parent.discount_id", false),
  available_payment_methods: `CASE WHEN ${CHECKOUT_ENABLED}
    THEN '["card"]'::json ELSE '[]'::json END`,
} as const;
type Included = keyof typeof INCLUDED;

const entities = new Map<string, EntityTable<Transaction>>();

/** The transaction entity with the fields `include` asks for (`adjustment` is `adjustments`). */
export function transactionEntity(include?: readonly TransactionInclude[]): EntityTable<Transaction> {
  if (!include?.length) return TRANSACTION;
  const asked = new Set<string>(include.map((name) => (name === "adjustment" ? "adjustments" : name)));
  const names = (Object.keys(INCLUDED) as Included[]).filter((name) => asked.has(name));
  const key = names.join(",");
  let entity = entities.get(key);
  if (!entity) {
    entity = { ...TRANSACTION, fields: [...TRANSACTION.fields, ...names.map((n) => [n, INCLUDED[n]] as const)] };
    entities.set(key, entity);
  }
  return entity;
}

export async function getTransaction(
  id: string,
  include?: readonly TransactionInclude[],
): Promise<RawJson<Transaction>> {
  const transaction = await getJson(transactionEntity(include), "t.id = $1", [id]);
  if (!transaction) throw notFound(id);
  return transaction;
}

export function listTransactions(q: ListTransactionsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.id) filters.push(params.oneOf("t.id", q.id));
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  if (q.customer_id) filters.push(params.oneOf("t.customer_id", q.customer_id));
  if (q.subscription_id) filters.push(params.oneOf("t.subscription_id", q.subscription_id));
  if (q.invoice_number) filters.push(params.oneOf("t.invoice_number", q.invoice_number));
  if (q.collection_mode) filters.push(`t.collection_mode = ${params.add(q.collection_mode)}`);
  if (q.origin) filters.push(params.oneOf("t.origin", q.origin));
  for (const [field, op, value] of rangeFilters(q)) {
    filters.push(`t.${field} ${op ? RANGE_OPERATORS[op] : "="} ${params.add(value)}::timestamptz`);
  }
  return listJson(transactionEntity(q.include), {
    filters,
    params,
    orderBy: q.order_by,
    after: q.after,
    perPage: q.per_page,
  });
}

// ---------------------------------------------------------------------------------------------
// Rules shared by create and update

/** The transaction as a request would leave it: what the rules between fields are checked on. */
interface Outcome {
  items: ResolvedItem[];
  /** Whether the request sent `items` (else problems with them are blamed on what changed). */
  itemsSent: boolean;
  customerId: string | null;
  /** The customer's name, when there is a customer. */
  customerName: string | null;
  addressId: string | null;
  countryCode: string | null;
  currency: string;
  collectionMode: CollectionMode;
  billingDetails: BillingDetails | null;
  discount: DiscountRef | null;
  checkoutUrl: string | null;
}

/**
 * The rules between a transaction's fields (spec: Transaction), each problem named by the field the
 * request should change. `sent` tells which fields the request sent.
 */
function checkOutcome(o: Outcome, sent: (field: string) => boolean, problems: Problems): void {
  recurringItemProblems(o.items, problems);
  for (const item of o.items) {
    if (pricedIn(item.price, o.countryCode, o.currency)) continue;
    const where = o.countryCode ? ` for customers in ${o.countryCode}` : "";
    const message = `has no unit price in ${o.currency}${where}`;
    if (o.itemsSent) {
      const field = item.catalogue ? `${item.field}.price_id` : `${item.field}.price.unit_price.currency_code`;
      problems.field(
        field,
        item.catalogue ? `${item.price.id} ${message}` : `is not ${o.currency}: the price ${message}`,
      );
    } else {
      const field = sent("currency_code") ? "currency_code" : "address_id";
      problems.field(field, `leaves ${item.field} (price ${item.price.id}) without a unit price: it ${message}`);
    }
  }
  if (o.discount) {
    const problem = discountCurrencyProblem(o.discount, o.currency);
    if (problem) problems.field(sent("discount_id") ? "discount_id" : "currency_code", `${o.discount.id} ${problem}`);
  }
  if (o.collectionMode === "manual") {
    if (!o.billingDetails) {
      problems.field("billing_details", "is required when collection_mode is manual (it holds the payment terms)");
    }
    if (!(MANUAL_CURRENCIES as readonly string[]).includes(o.currency)) {
      problems.field(
        "currency_code",
        `must be ${MANUAL_CURRENCIES.join(", ")} when collection_mode is manual, not ${o.currency}`,
      );
    }
    if (o.customerId !== null && !o.customerName?.trim()) {
      problems.field(
        "customer_id",
        `must be a customer with a name when collection_mode is manual: give customer ${o.customerId} a name first`,
      );
    }
  }
  if (o.checkoutUrl !== null && o.collectionMode === "manual" && !o.billingDetails?.enable_checkout) {
    problems.field(
      "checkout.url",
      "can be set only for automatically-collected transactions, or manually-collected ones with billing_details.enable_checkout true",
    );
  }
}

const durationText = (d: { interval: string; frequency: number } | null) =>
  d ? `every ${d.frequency} ${d.interval}${d.frequency === 1 ? "" : "s"}` : "none";

/**
 * The recurring items of a transaction become one subscription, with one billing cycle and one
 * trial period (reference §2: items must share trial and billing cycle): every recurring price must
 * have the first one's.
 */
function recurringItemProblems(items: readonly ResolvedItem[], problems: Problems): void {
  const recurring = items.filter((item) => item.price.billing_cycle !== null);
  const first = recurring[0];
  if (!first) return;
  const same = (a: { interval: string; frequency: number } | null, b: typeof a) =>
    a === b || (a !== null && b !== null && a.interval === b.interval && a.frequency === b.frequency);
  for (const item of recurring.slice(1)) {
    const field = item.catalogue ? `${item.field}.price_id` : `${item.field}.price`;
    if (!same(item.price.billing_cycle, first.price.billing_cycle)) {
      problems.field(
        field,
        `bills ${durationText(item.price.billing_cycle)}, but ${first.field} bills ${durationText(first.price.billing_cycle)}: the recurring items of a transaction become one subscription and must share one billing cycle`,
      );
    } else if (!same(item.price.trial_period, first.price.trial_period)) {
      problems.field(
        field,
        `has trial period ${durationText(item.price.trial_period)}, but ${first.field} has ${durationText(first.price.trial_period)}: the recurring items of a transaction must share one trial period`,
      );
    }
  }
}

export function storedBillingDetails(input: BillingDetailsInput): BillingDetails {
  return {
    enable_checkout: input.enable_checkout ?? false,
    purchase_order_number: input.purchase_order_number ?? null,
    additional_information: input.additional_information ?? null,
    payment_terms: { interval: input.payment_terms.interval, frequency: input.payment_terms.frequency },
  };
}

/**
 * `checkout` as stored: the URL given with `_ptxn=<transaction ID>` appended (the checkout script
 * on that page opens this transaction), as the API family does; null without a URL.
 */
function checkoutValue(input: CheckoutInput | null, transactionId: string): string | null {
  if (!input?.url) return null;
  const url = new URL(input.url);
  url.searchParams.set("_ptxn", transactionId);
  return storableJson({ url: url.toString() });
}

/** The IDs of `restrict_to` that name no product or price, as field errors. */
async function restrictToProblems(ids: readonly string[], problems: Problems, client: pg.PoolClient): Promise<void> {
  if (ids.length === 0) return;
  const rows = await query<{ id: string }>(
    "SELECT id FROM products WHERE id = ANY($1) UNION ALL SELECT id FROM prices WHERE id = ANY($1)",
    [ids],
    client,
  );
  const found = new Set(rows.map((row) => row.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) problems.field(`discount.restrict_to[${i}]`, `no product or price has the ID ${id}`);
  });
}

/** A non-catalogue discount, as the engine sees it before it is saved (in the transaction's currency). */
function customDiscount(input: NonCatalogueDiscountInput, currency: string): DiscountRef {
  return {
    id: "",
    mode: "custom",
    type: input.type,
    amount: input.amount,
    currency_code: input.type === "percentage" ? null : currency,
    restrict_to: input.restrict_to?.length ? input.restrict_to : null,
    json: "",
  };
}

/**
 * Saves a non-catalogue discount as a discount of mode `custom` (not redeemable at checkout, no
 * code), with its `discount.created` event. Returns its ID.
 */
async function saveCustomDiscount(
  input: NonCatalogueDiscountInput,
  currency: string,
  client: pg.PoolClient,
): Promise<string> {
  const id = newId("dsc");
  const restrictTo = input.restrict_to?.length ? input.restrict_to : null;
  await insertJson(
    DISCOUNT,
    {
      id,
      revision_id: newId("dscrev"),
      description: input.description,
      enabled_for_checkout: false,
      code: null,
      type: input.type,
      mode: "custom",
      amount: input.amount,
      currency_code: input.type === "percentage" ? null : currency,
      recur: input.recur ?? false,
      maximum_recurring_intervals: input.maximum_recurring_intervals ?? null,
      usage_limit: null,
      restrict_to: restrictTo,
      restricted: restrictTo !== null,
      expires_at: null,
      discount_group_id: null,
      custom_data: jsonb(input.custom_data ?? null),
    },
    "discount.created",
    client,
  );
  return id;
}

/** `now()` of the database transaction, exactly (a JavaScript Date would drop the microseconds). */
async function transactionNow(client: pg.PoolClient): Promise<string> {
  const [row] = await query<{ now: string }>("SELECT now()::text AS now", [], client);
  return row.now;
}

/** The result of a write, with the included entities when `include` asks for any. */
export async function withIncludes(
  written: RawJson<Transaction>,
  id: string,
  include: readonly TransactionInclude[] | undefined,
  client: pg.PoolClient,
): Promise<RawJson<Transaction>> {
  if (!include?.length) return written;
  return (await getJson(transactionEntity(include), "t.id = $1", [id], client)) ?? written;
}

// ---------------------------------------------------------------------------------------------
// Create

export async function createTransaction(
  input: CreateTransactionInput,
  include?: readonly TransactionInclude[],
  /** A database transaction to write in; by default its own. */
  within?: pg.PoolClient,
): Promise<RawJson<Transaction>> {
  const create = async (client: pg.PoolClient) => {
    const problems = new Problems();
    const items = await resolveItems(input.items, problems, client, true);
    const customerId = input.customer_id ?? null;
    const customer = customerId ? await loadCustomer(customerId, "customer_id", problems, client) : null;
    const address = input.address_id
      ? await loadAddress(input.address_id, customerId, "address_id", problems, client)
      : null;
    const business = input.business_id
      ? await loadBusiness(input.business_id, customerId, "business_id", problems, client)
      : null;
    const catalogueDiscount = input.discount_id
      ? await loadDiscount(input.discount_id, "discount_id", problems, client)
      : null;
    if (input.discount?.restrict_to) await restrictToProblems(input.discount.restrict_to, problems, client);
    // The rules below need every entity the request names.
    problems.throwIfAny();

    const countryCode = address?.countryCode ?? null;
    const currency = input.currency_code ?? defaultCurrency(items, countryCode);
    const discount = input.discount ? customDiscount(input.discount, currency) : catalogueDiscount;
    const billingDetails = input.billing_details ? storedBillingDetails(input.billing_details) : null;
    const sent = (field: string) => (input as Record<string, unknown>)[field] !== undefined;
    checkOutcome(
      {
        items,
        itemsSent: true,
        customerId,
        customerName: customer?.name ?? null,
        addressId: address?.id ?? null,
        countryCode,
        currency,
        collectionMode: input.collection_mode ?? "automatic",
        billingDetails,
        discount,
        checkoutUrl: input.checkout?.url ?? null,
      },
      sent,
      problems,
    );
    const complete = items.length > 0 && customerId !== null && input.address_id != null;
    if (input.status === "ready" && !complete) {
      problems.field(
        "status",
        "can be ready only with items, customer_id and address_id: send them, or leave status out to create a draft",
      );
    }
    problems.throwIfAny();

    // A request asking for `draft` holds the transaction as a draft; otherwise it is ready once complete.
    const status: TransactionStatus = input.status === "draft" || !complete ? "draft" : "ready";
    const id = newId("txn");
    await saveNewPrices(items, client);
    const discountId = input.discount
      ? await saveCustomDiscount(input.discount, currency, client)
      : (input.discount_id ?? null);
    await writeItems(client, id, items);
    const details = transactionDetails(items, { currency, tax: await taxContext(countryCode, client), discount });
    const written = await insertJson(
      TRANSACTION,
      {
        id,
        status,
        customer_id: customerId,
        address_id: input.address_id ?? null,
        business_id: input.business_id ?? null,
        custom_data: jsonb(input.custom_data ?? null),
        currency_code: currency,
        origin: "api",
        collection_mode: input.collection_mode ?? "automatic",
        discount_id: discountId,
        billing_details: billingDetails ? storableJson(billingDetails) : null,
        billing_period_starts_at: input.billing_period?.starts_at ?? null,
        billing_period_ends_at: input.billing_period?.ends_at ?? null,
        details: storableJson(details),
        payments: "[]",
        checkout: checkoutValue(input.checkout ?? null, id),
        customer_snapshot: customer?.json ?? null,
        address_snapshot: address?.json ?? null,
        business_snapshot: business?.json ?? null,
      },
      status === "ready" ? ["transaction.created", "transaction.ready"] : "transaction.created",
      client,
    );
    return withIncludes(written, id, include, client);
  };
  return within ? create(within) : sqlTransaction(create);
}

// ---------------------------------------------------------------------------------------------
// Update and status moves

interface Stored {
  status: TransactionStatus;
  customer_id: string | null;
  address_id: string | null;
  business_id: string | null;
  currency_code: string;
  collection_mode: CollectionMode;
  discount_id: string | null;
  billing_details: BillingDetails | null;
  checkout: { url: string | null } | null;
}

/** The stored transaction, locked until the change commits (a concurrent PATCH waits). */
async function lockTransaction(client: pg.PoolClient, id: string): Promise<Stored | undefined> {
  const [row] = await query<Stored>(
    `SELECT t.status, t.customer_id, t.address_id, t.business_id, t.currency_code, t.collection_mode,
            t.discount_id, t.billing_details, t.checkout
       FROM transactions t WHERE t.id = $1 FOR UPDATE`,
    [id],
    client,
  );
  return row;
}

function immutable(id: string, status: string): ApiError {
  const hint =
    status === "billed"
      ? ': a billed transaction is a legal record and can only be canceled (send {"status": "canceled"} alone); record refunds and credits with adjustments'
      : status === "completed"
        ? ": record refunds and credits with adjustments"
        : "";
  return new ApiError(
    "transaction_immutable",
    `Cannot update immutable transaction: ${id} is ${status}, and only draft and ready transactions can be changed${hint}.`,
  );
}

/** The move to `to` a PATCH asks for, refused unless the spec allows it (from `from`). */
function checkMove(from: TransactionStatus, to: TransactionStatus): void {
  if (isAllowedMove(from, to)) return;
  let why: string;
  if (to === "billed") {
    why =
      from === "draft"
        ? "only a ready transaction can be billed, and a draft becomes ready once it has items, a customer and an address"
        : "only a ready transaction can be billed";
  } else if (to === "canceled") {
    why = "only draft, ready and billed transactions can be canceled";
  } else {
    why = "only billed and canceled can be sent as status; the other statuses are set by the service";
  }
  throw new ApiError(
    "transaction_invalid_status_change",
    `Invalid attempt to change status from '${from}' to '${to}': ${why}.`,
  );
}

/** The changes of a PATCH to a draft or ready transaction, checked, before anything is written. */
interface Plan {
  items: ResolvedItem[];
  itemsSent: boolean;
  customer: CustomerRef | null;
  addressJson: string | null;
  businessJson: string | null;
  customerId: string | null;
  addressId: string | null;
  discount: DiscountRef | null;
  currency: string;
  countryCode: string | null;
  /** Whether the totals depend on something the request changed. */
  reprice: boolean;
}

/**
 * Loads and checks what a PATCH changes, on the transaction as the PATCH would leave it. Only
 * entities the request names are checked for being usable (archived, expired, ...); the others
 * were checked when they were added.
 */
async function planChanges(
  stored: Stored,
  id: string,
  input: UpdateTransactionInput,
  client: pg.PoolClient,
): Promise<Plan> {
  const problems = new Problems();
  const sent = (field: string) => (input as Record<string, unknown>)[field] !== undefined;
  const itemsSent = input.items !== undefined;
  const items = input.items ? await resolveItems(input.items, problems, client, true) : await storedItems(client, id);

  const customerId = input.customer_id !== undefined ? input.customer_id : stored.customer_id;
  let customer: CustomerRef | null = null;
  let customerName: string | null = null;
  if (input.customer_id) {
    customer = await loadCustomer(input.customer_id, "customer_id", problems, client);
    customerName = customer?.name ?? null;
  } else if (customerId) {
    const [row] = await query<{ name: string | null }>(
      "SELECT name FROM customers WHERE id = $1",
      [customerId],
      client,
    );
    customerName = row?.name ?? null;
  }

  const addressId = input.address_id !== undefined ? input.address_id : stored.address_id;
  let countryCode: string | null = null;
  let addressJson: string | null = null;
  if (input.address_id) {
    const address = await loadAddress(input.address_id, customerId, "address_id", problems, client);
    countryCode = address?.countryCode ?? null;
    addressJson = address?.json ?? null;
  } else if (addressId) {
    const [row] = await query<{ customer_id: string; country_code: string }>(
      "SELECT customer_id, country_code FROM addresses WHERE id = $1",
      [addressId],
      client,
    );
    countryCode = row?.country_code ?? null;
    if (row && row.customer_id !== customerId) {
      problems.field(
        "address_id",
        customerId
          ? `${addressId} is an address of customer ${row.customer_id}, not of ${customerId}: send an address_id of the new customer (or null)`
          : `${addressId} requires a customer: send address_id null with customer_id null`,
      );
    }
  }

  const businessId = input.business_id !== undefined ? input.business_id : stored.business_id;
  let businessJson: string | null = null;
  if (input.business_id) {
    const business = await loadBusiness(input.business_id, customerId, "business_id", problems, client);
    businessJson = business?.json ?? null;
  } else if (businessId) {
    const [row] = await query<{ customer_id: string }>(
      "SELECT customer_id FROM businesses WHERE id = $1",
      [businessId],
      client,
    );
    if (row && row.customer_id !== customerId) {
      problems.field(
        "business_id",
        customerId
          ? `${businessId} is a business of customer ${row.customer_id}, not of ${customerId}: send a business_id of the new customer (or null)`
          : `${businessId} requires a customer: send business_id null with customer_id null`,
      );
    }
  }

  if (stored.status === "ready") {
    // Ready is not undone: a ready transaction keeps a customer and an address.
    if (customerId === null) problems.field("customer_id", "cannot be removed from a ready transaction");
    if (addressId === null) problems.field("address_id", "cannot be removed from a ready transaction");
  }

  const currency = input.currency_code ?? stored.currency_code;
  let discount: DiscountRef | null = null;
  if (input.discount_id) discount = await loadDiscount(input.discount_id, "discount_id", problems, client);
  else if (input.discount) {
    if (input.discount.restrict_to) await restrictToProblems(input.discount.restrict_to, problems, client);
    discount = customDiscount(input.discount, currency);
  } else if (input.discount_id === undefined && input.discount === undefined && stored.discount_id) {
    discount = await storedDiscount(stored.discount_id, client);
  }
  problems.throwIfAny();

  const billingDetails =
    input.billing_details === undefined
      ? stored.billing_details
      : input.billing_details && storedBillingDetails(input.billing_details);
  const checkoutUrl = input.checkout === undefined ? (stored.checkout?.url ?? null) : (input.checkout?.url ?? null);
  checkOutcome(
    {
      items,
      itemsSent,
      customerId,
      customerName,
      addressId,
      countryCode,
      currency,
      collectionMode: input.collection_mode ?? stored.collection_mode,
      billingDetails,
      discount,
      checkoutUrl,
    },
    sent,
    problems,
  );
  problems.throwIfAny();
  const reprice = ["items", "customer_id", "address_id", "discount_id", "discount", "currency_code"].some(sent);
  return {
    items,
    itemsSent,
    customer,
    addressJson,
    businessJson,
    customerId,
    addressId,
    discount,
    currency,
    countryCode,
    reprice,
  };
}

/**
 * Counts the redemption of discount `id` by a transaction being billed, under a lock of the
 * discount's row, refusing it when the discount's usage_limit is already reached.
 */
async function redeemDiscount(client: pg.PoolClient, id: string): Promise<void> {
  const [row] = await query<{ usage_limit: number | null; times_used: number }>(
    "SELECT usage_limit, times_used FROM discounts WHERE id = $1 FOR UPDATE",
    [id],
    client,
  );
  if (!row) return;
  if (row.usage_limit !== null && row.times_used >= row.usage_limit) {
    throw new ApiError("invalid_field", "Invalid request.", {
      errors: [
        {
          field: "discount_id",
          message: `${id} has reached its usage_limit (${row.usage_limit}): remove it (discount_id null) to bill the transaction`,
        },
      ],
    });
  }
  await query("UPDATE discounts SET times_used = times_used + 1 WHERE id = $1", [id], client);
}

/** Gives back the redemption of a billed transaction that is canceled (its invoice is void). */
async function releaseDiscount(client: pg.PoolClient, id: string): Promise<void> {
  await query("UPDATE discounts SET times_used = greatest(times_used - 1, 0) WHERE id = $1", [id], client);
}

export async function updateTransaction(
  id: string,
  input: UpdateTransactionInput,
  include?: readonly TransactionInclude[],
): Promise<RawJson<Transaction>> {
  return sqlTransaction(async (client) => {
    const stored = await lockTransaction(client, id);
    if (!stored) throw notFound(id);
    const wanted = input.status;
    const changes = Object.entries(input).filter(([key, value]) => key !== "status" && value !== undefined);
    // Outside draft and ready, a PATCH can only move the status: nothing else (not even nothing).
    if (!EDITABLE_STATUSES.has(stored.status) && (wanted === undefined || changes.length > 0)) {
      throw immutable(id, stored.status);
    }
    if (wanted !== undefined) checkMove(stored.status, wanted);

    const plan = changes.length > 0 || wanted === "billed" ? await planChanges(stored, id, input, client) : null;
    let status = stored.status;
    if (wanted) status = wanted;
    else if (stored.status === "draft" && plan && plan.items.length > 0 && plan.customerId && plan.addressId) {
      status = "ready";
    }

    // Writes, the locks of billing last (discount row, then the invoice counter) so they are held briefly.
    // `discount_id` null removes the discount; so does `discount` null when no discount_id is sent
    // (the API family's clients clear a non-catalogue discount that way).
    let discountId: string | null | undefined = input.discount_id;
    if (input.discount)
      discountId = await saveCustomDiscount(input.discount, plan?.currency ?? stored.currency_code, client);
    else if (input.discount === null && input.discount_id === undefined) discountId = null;
    let details: string | undefined;
    if (plan?.reprice) {
      if (plan.itemsSent) {
        await saveNewPrices(plan.items, client);
        await writeItems(client, id, plan.items);
      }
      const tax = await taxContext(plan.countryCode, client);
      details = storableJson(transactionDetails(plan.items, { currency: plan.currency, tax, discount: plan.discount }));
    }
    const billing: Record<string, string> = {};
    const finalDiscount = discountId !== undefined ? discountId : stored.discount_id;
    if (wanted === "billed") {
      if (finalDiscount) await redeemDiscount(client, finalDiscount);
      billing.invoice_number = await nextInvoiceNumber(client);
      billing.invoice_id = `inv_${id.slice("txn_".length)}`;
      billing.billed_at = await transactionNow(client);
    } else if (wanted === "canceled" && stored.status === "billed" && stored.discount_id) {
      await releaseDiscount(client, stored.discount_id);
    }

    const snapshot = (sentId: string | null | undefined, json: string | null | undefined) =>
      sentId === undefined ? undefined : sentId === null ? null : json;
    const written = await updateJson(
      TRANSACTION,
      { sql: "t.id = $1", values: [id] },
      {
        status: status !== stored.status ? status : undefined,
        customer_id: input.customer_id,
        customer_snapshot: snapshot(input.customer_id, plan?.customer?.json),
        address_id: input.address_id,
        address_snapshot: snapshot(input.address_id, plan?.addressJson),
        business_id: input.business_id,
        business_snapshot: snapshot(input.business_id, plan?.businessJson),
        custom_data: jsonb(input.custom_data),
        currency_code: input.currency_code,
        origin: input.origin,
        collection_mode: input.collection_mode,
        discount_id: discountId,
        billing_details:
          input.billing_details === undefined
            ? undefined
            : input.billing_details && storableJson(storedBillingDetails(input.billing_details)),
        billing_period_starts_at:
          input.billing_period === undefined ? undefined : (input.billing_period?.starts_at ?? null),
        billing_period_ends_at:
          input.billing_period === undefined ? undefined : (input.billing_period?.ends_at ?? null),
        checkout: input.checkout === undefined ? undefined : checkoutValue(input.checkout, id),
        details,
        ...billing,
      },
      status !== stored.status ? ["transaction.updated", `transaction.${status}`] : "transaction.updated",
      client,
    );
    if (!written) throw notFound(id);
    // A manual invoice with recurring items creates its subscription when it is issued (reference
    // §2): subscription.created and .activated after transaction.billed, then the transaction.updated
    // that carries subscription_id and billing_period.
    if (wanted === "billed") {
      const [row] = await query<{ collection_mode: string; subscription_id: string | null; period_set: boolean }>(
        "SELECT collection_mode, subscription_id, billing_period_starts_at IS NOT NULL AS period_set FROM transactions WHERE id = $1",
        [id],
        client,
      );
      if (row.collection_mode === "manual" && row.subscription_id === null) {
        const [{ now }] = await query<{ now: Date }>("SELECT now() AS now", [], client);
        const created = await createFromTransaction(client, id, now, null);
        if (created) {
          const linked = await updateJson(
            TRANSACTION,
            { sql: "t.id = $1", values: [id] },
            linkColumns(created, row.period_set),
            "transaction.updated",
            client,
          );
          return withIncludes(linked ?? written, id, include, client);
        }
      }
    }
    return withIncludes(written, id, include, client);
  });
}
