/**
 * Billing a subscription: one transaction of the subscription's lines, created `billed` and then
 * collected — the one path for renewals, resumes that start a new period, trial
 * activations, immediate item changes and one-time charges.
 *
 * - Automatic collection: the saved card is charged (lib/services/payments/saved-charges.ts
 *   chargeSavedCards, the one completion of every payment): a sandbox test card at once, a method
 *   held by Stripe after this database transaction commits (the outcome is `pending` here, and the
 *   request's `purpose` says what its settlement does: charge-outcomes.ts). A decline leaves the
 *   transaction with its failed payment; `onDecline: "past_due"` also moves it (and the caller the
 *   subscription) to past_due, as a renewal does.
 * - Manual collection: the invoice is issued (invoice number now, `billed`), paid by the customer
 *   on its terms; the engine moves it to past_due at its due date.
 * Totals come from the same engine as every transaction (lib/services/transactions/details.ts), so a
 * preview of the same lines (lib/services/subscriptions/preview.ts) equals what is billed.
 *
 * Credit balance (decision: credits-as-negative-lines): a transaction whose total is positive is paid first from the
 * customer's available credit in its currency (`details.totals.credit`; the credit is reserved,
 * then used when the transaction completes or given back when it is canceled: a trigger on
 * transactions does both); one whose total is negative (credits beyond the charges) puts the
 * difference on the balance (`credit_to_balance`). A transaction that then owes nothing is
 * completed at once, whatever its collection mode: there is nothing to collect.
 */
import type pg from "pg";
import { invoiceIdOf } from "../../billing/payments.ts";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import { insertRows, type Queryable, query } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import type { TransactionOrigin } from "../../schemas/transaction.ts";
import { addCredit, takeCredit } from "../credit-balances.ts";
import { nextInvoiceNumbers } from "../invoice-numbers.ts";
import { savedCards } from "../payment-methods.ts";
import { chargeSavedCards } from "../payments/saved-charges.ts";
import { addressTaxContexts, taxContext, transactionDetails, withItems } from "../transactions/details.ts";
import type { LineProration, PriceJson, ProductJson, ResolvedItem } from "../transactions/items.ts";
import { insertItems } from "../transactions/items.ts";
import { type DiscountRef, storedDiscount } from "../transactions/references.ts";
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
  /**
   * completed (paid now), declined (automatic, the card refused), billed (manual: an invoice
   * issued), pending (automatic, a Stripe method: the charge is recorded and made once the caller's
   * database transaction commits; its purpose's follow-up runs when it settles).
   */
  outcome: "completed" | "declined" | "billed" | "pending";
}

/** One subscription transaction to bill: `lines` for `sub`, as of `at` (its clock), for `period`. */
export interface BillRequest {
  sub: SubscriptionRow;
  lines: readonly BillLine[];
  origin: TransactionOrigin;
  period: Period;
  at: Date;
  discount: DiscountRef | null;
  onDecline: "past_due" | "keep";
  /** What a Stripe charge's settlement does next (charge-outcomes.ts ChargePurpose, as text). */
  purpose?: string | null;
}

/**
 * Creates and collects the transaction of `lines` for `sub` (see the top of this file), as of `at`
 * (the subscription's clock), for `period`, with `origin`: billSubscriptions of one.
 */
export async function billSubscription(
  client: pg.PoolClient,
  sub: SubscriptionRow,
  options: Omit<BillRequest, "sub">,
): Promise<Billed> {
  const [billed] = await billSubscriptions(client, [{ sub, ...options }]);
  if (billed === undefined) throw new Error(`billing subscription ${sub.id} answered no transaction`);
  return billed;
}

/**
 * Bills many subscriptions at once, set-based (the engine renews a batch of subscriptions in one
 * database transaction; every other caller bills one): what each costs is computed here by the
 * totals engine, one request at a time, and what is written goes in a few multi-row statements —
 * the items, the transactions with their events, then the charges of the saved cards
 * (chargeSavedCards). Reads are by batch: addresses and tax rates, saved cards.
 *
 * Lock order within a batch: credit balances (customer by customer, in the batch's order) before
 * the invoice counter (manual invoices now, automatic ones at completion), the counter before the
 * revenue rollup (the completion's trigger): the same order as one subscription's billing, so
 * billers never deadlock.
 */
export async function billSubscriptions(client: pg.PoolClient, requests: readonly BillRequest[]): Promise<Billed[]> {
  if (requests.length === 0) return [];
  const taxes = await addressTaxContexts(
    requests.map((r) => r.sub.address_id),
    client,
  );
  const bills = [];
  for (const request of requests) {
    const { sub } = request;
    const items = lineItems(request.lines);
    const pricing = {
      currency: sub.currency_code,
      tax: taxes.get(sub.address_id) ?? (await taxContext(null, client)),
      discount: request.discount,
      ignoreTrials: true,
    };
    bills.push({ request, id: newId("txn"), items, pricing, details: transactionDetails(items, pricing) });
  }
  await payFromCreditBalances(client, bills);
  await insertItems(
    client,
    bills.map((b) => ({ transactionId: b.id, items: b.items })),
  );
  // The line items' IDs are their items' txnitm_ IDs, which insertItems has just given them (the
  // details were computed before: without this, renewals answered line items with a null id).
  for (const bill of bills) {
    for (const [line, item] of withItems(bill.details.line_items, bill.items)) line.id = item.id as string;
  }
  const manual = bills.filter((b) => b.request.sub.collection_mode === "manual");
  const numbers = await nextInvoiceNumbers(client, manual.length);
  const invoices = new Map(manual.map((b, i) => [b.id, { invoice_number: numbers[i], invoice_id: invoiceIdOf(b.id) }]));
  await insertRows(
    TRANSACTION,
    bills.map(({ request: { sub, origin, period, at, discount }, id, details }) => ({
      id,
      status: "billed",
      customer_id: sub.customer_id,
      address_id: sub.address_id,
      business_id: sub.business_id,
      custom_data: null,
      currency_code: sub.currency_code,
      origin,
      subscription_id: sub.id,
      collection_mode: sub.collection_mode,
      discount_id: discount?.id ?? null,
      billing_details: sub.billing_details,
      billing_period_starts_at: period.starts_at,
      billing_period_ends_at: period.ends_at,
      details,
      payments: [],
      checkout: null,
      billed_at: at,
      invoice_number: invoices.get(id)?.invoice_number ?? null,
      invoice_id: invoices.get(id)?.invoice_id ?? null,
    })),
    ["transaction.created", "transaction.billed"],
    client,
  );
  // A manual invoice is paid by the customer on its terms; one that owes nothing is completed now.
  const collected = bills.filter((b) => !invoices.has(b.id) || b.details.totals.balance === "0");
  const cards = await savedCards(
    client,
    collected.map((b) => (b.request.sub.collection_mode === "manual" ? null : b.request.sub.payment_method_id)),
  );
  const outcomes = await chargeSavedCards(
    client,
    collected.map(({ request: { sub, at, onDecline, purpose }, id }) => ({
      transactionId: id,
      saved:
        sub.collection_mode === "manual" || !sub.payment_method_id ? null : (cards.get(sub.payment_method_id) ?? null),
      at,
      pastDue: onDecline === "past_due",
      purpose: purpose ?? null,
    })),
  );
  const outcome = new Map(collected.map((b, i) => [b.id, outcomes[i]]));
  return bills.map((b) => ({ transactionId: b.id, outcome: outcome.get(b.id) ?? "billed" }));
}

/**
 * The credit balance of each bill's customer (decision: credits-as-negative-lines): a positive total is paid first from
 * the available credit (reserved now, used or given back when the transaction completes or is
 * canceled); a negative one puts the difference on the balance. Most customers have no credit:
 * one query finds the few that do, and only their rows are locked and taken from.
 */
async function payFromCreditBalances(
  client: pg.PoolClient,
  bills: {
    request: BillRequest;
    items: ReturnType<typeof lineItems>;
    pricing: Parameters<typeof transactionDetails>[1];
    details: ReturnType<typeof transactionDetails>;
  }[],
): Promise<void> {
  const owing = bills.filter((b) => BigInt(b.details.totals.total) > 0n);
  const withCredit = new Set(
    owing.length === 0
      ? []
      : (
          await query<{ key: string }>(
            `SELECT customer_id || ' ' || currency_code AS key FROM credit_balances
              WHERE customer_id = ANY($1) AND available > 0`,
            [owing.map((b) => b.request.sub.customer_id)],
            client,
          )
        ).map((row) => row.key),
  );
  // In one order (customer, currency) for every batch: two batches never wait on each other's rows.
  const byCustomer = [...bills].sort((a, b) =>
    creditKey(a.request.sub) < creditKey(b.request.sub)
      ? -1
      : creditKey(a.request.sub) > creditKey(b.request.sub)
        ? 1
        : 0,
  );
  for (const bill of byCustomer) {
    const { sub } = bill.request;
    const total = BigInt(bill.details.totals.total);
    if (total > 0n && withCredit.has(creditKey(sub))) {
      const taken = await takeCredit(client, sub.customer_id, sub.currency_code, total, false);
      if (taken > 0n) bill.details = transactionDetails(bill.items, { ...bill.pricing, creditBalance: taken });
    } else if (total < 0n) {
      await addCredit(client, sub.customer_id, sub.currency_code, -total);
    }
  }
}

function creditKey(sub: Pick<SubscriptionRow, "customer_id" | "currency_code">): string {
  return `${sub.customer_id} ${sub.currency_code}`;
}
