/**
 * POST /transactions (spec: Transaction). A transaction is created `ready` once it has items, a
 * customer and an address, unless the request asks for `draft` (which holds it as a draft), else
 * `draft`. Emits `transaction.created` (and `transaction.ready` when created ready) in the
 * statement that writes the row. Its `details` are computed by the money engine and stored (see
 * update.ts).
 */
import type pg from "pg";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import { insertJson, jsonb, type RawJson, sqlTransaction, storableJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import type {
  CreateTransactionInput,
  Transaction,
  TransactionInclude,
  TransactionStatus,
} from "../../schemas/transaction.ts";
import { defaultCurrency, taxContext, transactionDetails } from "./details.ts";
import { customDiscount, restrictToProblems, saveCustomDiscount } from "./discounts.ts";
import { withIncludes } from "./get.ts";
import { resolveItems, saveNewPrices, writeItems } from "./items.ts";
import { loadAddress, loadBusiness, loadCustomer, loadDiscount, Problems } from "./references.ts";
import { checkOutcome } from "./rules.ts";
import { checkoutValue, storedBillingDetails } from "./stored-fields.ts";

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
