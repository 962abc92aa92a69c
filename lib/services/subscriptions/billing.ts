/**
 * Billing a subscription: one transaction of the subscription's lines, created `billed` and then
 * collected (reference §9) — the one path for renewals, resumes that start a new period, trial
 * activations, immediate item changes and one-time charges.
 *
 * - Automatic collection: the saved card is charged at once (lib/services/payments.ts
 *   chargeSavedCard, the one completion of every payment). A decline leaves the transaction with
 *   its failed payment; `onDecline: "past_due"` also moves it (and the caller the subscription) to
 *   past_due, as a renewal does.
 * - Manual collection: the invoice is issued (invoice number now, `billed`), paid by the customer
 *   on its terms; the engine moves it to past_due at its due date.
 * Totals come from the same engine as every transaction (lib/services/transaction-details.ts), so a
 * preview of the same lines (lib/services/subscriptions/preview.ts) equals what is billed.
 *
 * Credit balance (reference §13): a transaction whose total is positive is paid first from the
 * customer's available credit in its currency (`details.totals.credit`; the credit is reserved,
 * then used when the transaction completes or given back when it is canceled: a trigger on
 * transactions does both); one whose total is negative (credits beyond the charges) puts the
 * difference on the balance (`credit_to_balance`). A transaction that then owes nothing is
 * completed at once, whatever its collection mode: there is nothing to collect.
 */
import type pg from "pg";
import { insertJson, type Queryable, query, storableJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import type { TransactionOrigin } from "../../schemas/transaction.ts";
import { addCredit, takeCredit } from "../credit-balances.ts";
import { nextInvoiceNumber } from "../invoice-numbers.ts";
import { savedCard } from "../payment-methods.ts";
import { chargeSavedCard } from "../payments.ts";
import { taxContext, transactionDetails } from "../transaction-details.ts";
import type { LineProration, PriceJson, ProductJson, ResolvedItem } from "../transaction-items.ts";
import { writeItems } from "../transaction-items.ts";
import { type DiscountRef, storedDiscount } from "../transaction-references.ts";
import { TRANSACTION } from "../transactions.ts";
import type { SubscriptionRow } from "./store.ts";

/** One line of a subscription transaction. */
export interface BillLine {
  price: PriceJson;
  product: ProductJson;
  quantity: number;
  proration?: LineProration | null;
  credit?: boolean;
}

export interface Period {
  starts_at: Date;
  ends_at: Date;
}

/** The subscription's "now": real time, or later if its sandbox test clock was moved forward. */
export function subscriptionNow(sub: Pick<SubscriptionRow, "clock_at">, real: Date = new Date()): Date {
  return sub.clock_at && sub.clock_at.getTime() > real.getTime() ? new Date(sub.clock_at) : real;
}

/** Resolved items (the totals engine's input) for subscription lines. */
export function lineItems(lines: readonly BillLine[]): ResolvedItem[] {
  return lines.map((line, index) => ({
    field: `items[${index}]`,
    catalogue: true,
    price: line.price,
    product: line.product,
    quantity: line.quantity,
    includeInTotals: true,
    newPrice: null,
    id: null,
    proration: line.proration ?? null,
    credit: line.credit ?? false,
  }));
}

/**
 * The discount the subscription applies to a period (or an immediate charge) starting at
 * `periodStart`: null when none, not started yet (a discount set from the next billing period) or
 * ended.
 */
export async function periodDiscount(
  on: Queryable,
  sub: Pick<SubscriptionRow, "discount_id" | "discount_starts_at" | "discount_ends_at">,
  periodStart: Date,
): Promise<DiscountRef | null> {
  if (!sub.discount_id) return null;
  if (sub.discount_starts_at && periodStart.getTime() < sub.discount_starts_at.getTime()) return null;
  if (sub.discount_ends_at && periodStart.getTime() >= sub.discount_ends_at.getTime()) return null;
  return storedDiscount(sub.discount_id, on);
}

/** The country of the subscription's address (the tax rate and price overrides follow it). */
export async function subscriptionCountry(on: Queryable, addressId: string): Promise<string | null> {
  const [row] = await query<{ country_code: string }>(
    "SELECT country_code FROM addresses WHERE id = $1",
    [addressId],
    on,
  );
  return row?.country_code ?? null;
}

export interface Billed {
  transactionId: string;
  /** completed (paid now), declined (automatic, the card refused), billed (manual: an invoice issued). */
  outcome: "completed" | "declined" | "billed";
}

/**
 * Creates and collects the transaction of `lines` for `sub` (see the top of this file), as of `at`
 * (the subscription's clock), for `period`, with `origin`.
 */
export async function billSubscription(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  options: {
    lines: readonly BillLine[];
    origin: TransactionOrigin;
    period: Period;
    at: Date;
    discount: DiscountRef | null;
    onDecline: "past_due" | "keep";
  },
): Promise<Billed> {
  const items = lineItems(options.lines);
  const id = newId("txn");
  await writeItems(client, id, items);
  const country = await subscriptionCountry(client, sub.address_id);
  const pricing = {
    currency: sub.currency_code,
    tax: await taxContext(country, client),
    discount: options.discount,
    ignoreTrials: true,
  };
  let details = transactionDetails(items, pricing);
  const total = BigInt(details.totals.total);
  if (total > 0n) {
    const taken = await takeCredit(client, sub.customer_id, sub.currency_code, total, false);
    if (taken > 0n) details = transactionDetails(items, { ...pricing, creditBalance: taken });
  } else if (total < 0n) {
    await addCredit(client, sub.customer_id, sub.currency_code, -total);
  }
  const manual = sub.collection_mode === "manual";
  const at = options.at.toISOString();
  await insertJson(
    TRANSACTION,
    {
      id,
      status: "billed",
      customer_id: sub.customer_id,
      address_id: sub.address_id,
      business_id: sub.business_id,
      custom_data: null,
      currency_code: sub.currency_code,
      origin: options.origin,
      subscription_id: sub.id,
      collection_mode: sub.collection_mode,
      discount_id: options.discount?.id ?? null,
      billing_details: sub.billing_details ? storableJson(sub.billing_details) : null,
      billing_period_starts_at: options.period.starts_at,
      billing_period_ends_at: options.period.ends_at,
      details: storableJson(details),
      payments: "[]",
      checkout: null,
      billed_at: at,
      ...(manual
        ? { invoice_number: await nextInvoiceNumber(client), invoice_id: `inv_${id.slice("txn_".length)}` }
        : {}),
    },
    ["transaction.created", "transaction.billed"],
    client,
  );
  if (manual && details.totals.balance !== "0") return { transactionId: id, outcome: "billed" };
  const card = manual ? null : await savedCard(client, sub.payment_method_id);
  const outcome = await chargeSavedCard(client, id, card, options.at, options.onDecline === "past_due");
  return { transactionId: id, outcome };
}
