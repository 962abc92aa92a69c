/**
 * PATCH /transactions/{transaction_id} (spec: Transaction, States and transitions): the changes of
 * a draft or ready transaction, and the status moves, with the events of every change.
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
 * simulation scenarios (lib/simulator/simulation-types.ts) emit them in the same order.
 *
 * Totals. `details` is computed by the money engine (lib/billing/totals.ts) and stored whenever the
 * items, the customer, the address, the discount or the currency change, so a later change of the
 * catalogue or of the tax rates does not move the totals of an existing transaction by itself.
 *
 * Discount redemptions: discounts.ts.
 */
import type pg from "pg";
import { invoiceIdOf } from "../../billing/payments.ts";
import { EDITABLE_STATUSES } from "../../billing/transaction-states.ts";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import { jsonb, query, queryExactlyOne, type RawJson, sqlTransaction, storableJson, updateJson } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import type {
  BillingDetails,
  CollectionMode,
  Transaction,
  TransactionInclude,
  TransactionStatus,
  UpdateTransactionInput,
} from "../../schemas/transaction.ts";
import { nextInvoiceNumber } from "../invoice-numbers.ts";
import { createFromTransaction, linkColumns } from "../subscriptions/create.ts";
import { taxContext, transactionDetails } from "./details.ts";
import {
  customDiscount,
  redeemDiscount,
  releaseDiscount,
  restrictToProblems,
  saveCustomDiscount,
} from "./discounts.ts";
import { withIncludes } from "./get.ts";
import { type ResolvedItem, resolveItems, saveNewPrices, storedItems, writeItems } from "./items.ts";
import {
  type CustomerRef,
  type DiscountRef,
  loadAddress,
  loadBusiness,
  loadCustomer,
  loadDiscount,
  Problems,
  storedDiscount,
} from "./references.ts";
import { checkOutcome } from "./rules.ts";
import { checkMove, immutable } from "./status.ts";
import { checkoutValue, storedBillingDetails } from "./stored-fields.ts";

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

/** `now()` of the database transaction, exactly (a JavaScript Date would drop the microseconds). */
async function transactionNow(client: pg.PoolClient): Promise<string> {
  const row = await queryExactlyOne<{ now: string }>("SELECT now()::text AS now", [], client);
  return row.now;
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
      billing.invoice_id = invoiceIdOf(id);
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
    // A manual invoice with recurring items creates its subscription when it is issued
    // (decision: subscription-from-recurring-items): subscription.created and .activated after transaction.billed, then the transaction.updated
    // that carries subscription_id and billing_period.
    if (wanted === "billed") {
      const row = await queryExactlyOne<{
        collection_mode: string;
        subscription_id: string | null;
        period_set: boolean;
      }>(
        "SELECT collection_mode, subscription_id, billing_period_starts_at IS NOT NULL AS period_set FROM transactions WHERE id = $1",
        [id],
        client,
      );
      if (row.collection_mode === "manual" && row.subscription_id === null) {
        const { now } = await queryExactlyOne<{ now: Date }>("SELECT now() AS now", [], client);
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
