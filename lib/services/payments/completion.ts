/**
 * The one completion of every way of paying a transaction, and the row lock payments take turns on.
 *
 * Completion. In one database transaction, with the transaction's row locked (a second payment
 * waits and then finds it completed: never charged twice): the captured payment is put first in
 * `payments` (newest first), the fee and earnings are computed by the money engine
 * (lib/billing/payments.ts completedDetails → totals.ts payoutTotals, with the fee of lib/config.ts
 * in the sandbox; from the processor's settlement when one is given), `billed_at` is set if it was
 * not, `completed_at` is now, the status `completed`; the events `transaction.updated`,
 * `transaction.paid`, `transaction.completed` are written in the same statement, in the API
 * family's order. They all carry the completed transaction: `paid` (payment captured, processing
 * not done) is passed through at once.
 *
 * Discount redemptions. A discount's `times_used` counts when a transaction is billed (see
 * lib/services/transactions/discounts.ts); a transaction completed without ever being billed
 * (automatic collection at checkout) counts it at completion. It is counted even past
 * `usage_limit`: the limit was checked when the discount was applied, and the customer has paid.
 *
 * A declined payment is recorded as a payment with status `error` and its `error_code`, with the
 * events `transaction.updated` and `transaction.payment_failed`; the status does not change (the
 * customer may try another card) unless a failed renewal charge moves it to past_due.
 */

import type pg from "pg";
import {
  type CompletableDetails,
  completedDetails,
  invoiceIdOf,
  type Payment,
  settledDetails,
} from "../../billing/payments.ts";
import type { SettlementLike } from "../../billing/totals.ts";
import { checkoutEnabled } from "../../billing/transaction-states.ts";
import { config } from "../../config.ts";
import { recurringItemsSql } from "../../db/entities/transaction.ts";
import { query, queryExactlyOne, storableJson } from "../../db/sql.ts";
import { ApiError, notFound } from "../../errors.ts";
import type { BillingDetails, TransactionDetails } from "../../schemas/transaction.ts";
import { withAdjustedTotalsOf } from "../adjustments/adjusted-totals.ts";
import { nextInvoiceNumber, nextInvoiceNumbers } from "../invoice-numbers.ts";
import { createFromTransaction, linkColumns } from "../subscriptions/create.ts";
import { subscriptionTransactionPaid, subscriptionTransactionsPaid } from "../subscriptions/recover.ts";
import { withItems } from "../transactions/details.ts";
import { countRedemption } from "../transactions/discounts.ts";
import { completeTransaction, completeTransactions, markTransactionPaid } from "../transactions/moves.ts";

export interface Locked {
  id: string;
  status: string;
  collection_mode: string;
  billing_details: BillingDetails | null;
  details: CompletableDetails;
  payments: Payment[];
  discount_id: string | null;
  billed_at: string | null;
  invoice_number: string | null;
  invoice_id: string | null;
  customer_id: string | null;
  address_id: string | null;
  subscription_id: string | null;
  billing_period_starts_at: string | null;
  /**
   * Whether any item has a recurring price, asked only of a transaction of no subscription yet
   * (completing it creates one); false for a subscription's own. Computed row by row through the
   * items' index: as EXISTS, the planner hashed it over every item of every transaction (a scan of
   * the whole table per batch of renewals, 0.3 ms per renewal at 10,000 rows and growing).
   */
  recurring: boolean;
}

/** The transaction's row, locked until the change commits: concurrent payments take turns. */
export async function lockForPayment(client: pg.PoolClient, id: string): Promise<Locked> {
  const [row] = await lockForPayments(client, [id]);
  if (!row) throw notFound(id);
  return row;
}

/** The rows of `ids` (in ID order: the lock order), locked as lockForPayment; unknown IDs are missing. */
export async function lockForPayments(client: pg.PoolClient, ids: readonly string[]): Promise<Locked[]> {
  return query<Locked>(
    `SELECT t.id, t.status, t.collection_mode, t.billing_details, t.details, t.payments, t.discount_id,
            t.billed_at::text AS billed_at, t.invoice_number, t.invoice_id, t.customer_id, t.address_id, t.subscription_id,
            t.billing_period_starts_at::text AS billing_period_starts_at,
            CASE WHEN t.subscription_id IS NULL THEN ${recurringItemsSql("t")} ELSE false END AS recurring
       FROM transactions t WHERE t.id = ANY($1) ORDER BY t.id FOR UPDATE`,
    [ids],
    client,
  );
}

export function refuseOutsideSandbox(): void {
  if (config.environment !== "sandbox") {
    throw new ApiError(
      "sandbox_only",
      "This is the live environment: the hosted checkout takes only simulated payments, which exist in the sandbox. No card was charged.",
    );
  }
}

/** Why the checkout takes no payment for the transaction (not ready, or an invoice without checkout). */
export function notPayableAtCheckout(
  id: string,
  stored: Pick<Locked, "status" | "collection_mode" | "billing_details">,
): ApiError {
  return new ApiError(
    "transaction_not_payable",
    checkoutEnabled(stored)
      ? `Transaction ${id} is ${stored.status}: the checkout takes a payment only for a ready automatically-collected transaction or a billed or past-due invoice.`
      : `Transaction ${id} is a manually-collected invoice without checkout (billing_details.enable_checkout is false): it is paid as its invoice says.`,
  );
}

export function alreadyPaid(id: string): ApiError {
  return new ApiError("transaction_already_paid", `Transaction ${id} is already completed: it was paid.`);
}

export async function nowText(client: pg.PoolClient): Promise<string> {
  const row = await queryExactlyOne<{ now: string }>(
    `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now`,
    [],
    client,
  );
  return row.now;
}

/**
 * Completes the locked transaction with the captured `payment` (see the top of this file). The one
 * completion of every way of paying. A transaction with recurring items that belongs to no
 * subscription yet creates its subscription here (lib/services/subscriptions/create.ts), with the
 * events in the API family's order: transaction.updated, transaction.paid, subscription.created,
 * subscription.activated (or .trialing), transaction.updated (subscription_id, billing_period,
 * invoice number), transaction.completed. `paymentMethodId`: the card saved for renewals.
 */
export async function completeWithPayment(
  client: pg.PoolClient,
  stored: Locked,
  payment: Payment,
  paymentMethodId: string | null = null,
  settlement: SettlementLike | null = null,
): Promise<void> {
  if (buysSubscription(stored)) await completeBuyingSubscription(client, stored, payment, paymentMethodId, settlement);
  else await completeWithPayments(client, [{ stored, payment, settlement }]);
}

/**
 * A payment to complete with: the locked row, the captured payment, and the processor's settlement
 * (its fee and conversion), or none for the sandbox's fee rule (lib/config.ts).
 */
export interface Completion {
  stored: Locked;
  payment: Payment;
  settlement?: SettlementLike | null;
}

/** Whether completing the transaction creates its subscription (recurring items, no subscription yet). */
export function buysSubscription(stored: Locked): boolean {
  return (
    stored.recurring && stored.subscription_id === null && stored.customer_id !== null && stored.address_id !== null
  );
}

/** What completion writes besides the status: the payment first in `payments`, the fees, billed_at. */
async function paidColumns(
  client: pg.PoolClient,
  completions: readonly Completion[],
): Promise<{ payments: Payment[]; details: TransactionDetails; billed_at: string | null }[]> {
  const fees = { percent: config.fees.percent, fixed: config.fees.fixed };
  // Credits made on the invoice before it was paid stay subtracted in the adjusted totals.
  const details = await withAdjustedTotalsOf(
    client,
    completions.map(({ stored, settlement }) => ({
      transactionId: stored.id,
      details: (settlement
        ? settledDetails(stored.details, settlement)
        : completedDetails(stored.details, fees)) as TransactionDetails,
    })),
  );
  for (const { stored } of completions) {
    if (stored.billed_at === null && stored.discount_id) {
      await countRedemption(client, stored.discount_id);
    }
  }
  return withItems(completions, details).map(([{ stored, payment }, adjusted]) => ({
    payments: [payment, ...stored.payments],
    details: adjusted,
    billed_at: stored.billed_at ?? payment.captured_at,
  }));
}

/**
 * An automatically-collected transaction gets its invoice number when it is completed, as in the
 * API family (a manual one got it when billed): its invoice PDF is then available. The numbers of
 * a batch are taken in one statement, in the batch's order.
 */
async function invoiceColumns(
  client: pg.PoolClient,
  stored: readonly Locked[],
): Promise<{ invoice_number: string | null; invoice_id: string | null }[]> {
  const numbers = await nextInvoiceNumbers(client, stored.filter((s) => s.invoice_number === null).length);
  let next = 0;
  return stored.map((s) => {
    if (s.invoice_number !== null) return { invoice_number: s.invoice_number, invoice_id: s.invoice_id };
    const number = numbers[next++];
    if (number === undefined) throw new Error(`${numbers.length} invoice numbers taken for more transactions`);
    return { invoice_number: number, invoice_id: invoiceIdOf(s.id) };
  });
}

/**
 * Completes many locked transactions, each with its captured payment, in one statement (with their
 * events transaction.updated, transaction.paid, transaction.completed): the completion of
 * completeWithPayment for transactions that create no subscription (a batch of renewals is many;
 * a checkout payment is one).
 */
export async function completeWithPayments(client: pg.PoolClient, completions: readonly Completion[]): Promise<void> {
  if (completions.length === 0) return;
  const paid = await paidColumns(client, completions);
  const invoices = await invoiceColumns(
    client,
    completions.map((c) => c.stored),
  );
  const rows = withItems(withItems(completions, paid), invoices).map(([[{ stored, payment }, columns], invoice]) => ({
    id: stored.id,
    ...columns,
    completed_at: payment.captured_at,
    ...invoice,
  }));
  const written = await completeTransactions(client, rows);
  if (written.length !== rows.length) throw notFound(rows.find((row) => !written.includes(row.id))?.id ?? "");
  await subscriptionTransactionsPaid(
    client,
    completions.flatMap(({ stored }) =>
      stored.subscription_id ? [{ subscriptionId: stored.subscription_id, transactionId: stored.id }] : [],
    ),
  );
}

/** completeWithPayment of a transaction that creates its subscription (see there for the events). */
async function completeBuyingSubscription(
  client: pg.PoolClient,
  stored: Locked,
  payment: Payment,
  paymentMethodId: string | null,
  settlement: SettlementLike | null,
): Promise<void> {
  const [paid] = await paidColumns(client, [{ stored, payment, settlement }]);
  const [invoice] = await invoiceColumns(client, [stored]);
  if (!paid || !invoice) throw new Error(`no completion columns for transaction ${stored.id}`);
  await markTransactionPaid(client, stored.id, {
    payments: storableJson(paid.payments),
    details: storableJson(paid.details),
    billed_at: paid.billed_at,
  });
  const created = await createFromTransaction(
    client,
    stored.id,
    new Date(payment.captured_at as string),
    paymentMethodId,
  );
  const link = created ? linkColumns(created, stored.billing_period_starts_at !== null) : {};
  const written = await completeTransaction(client, stored.id, {
    completed_at: payment.captured_at,
    ...invoice,
    ...link,
  });
  if (!written) throw notFound(stored.id);
}

/** What a payment endpoint answers: the attempt and the transaction's status after it. */
export interface PaymentResult {
  transaction_id: string;
  transaction_status: string;
  payment: Payment;
}

export function paymentResult(id: string, status: string, payment: Payment): PaymentResult {
  return { transaction_id: id, transaction_status: status, payment };
}

export async function completeOwingNothing(client: pg.PoolClient, stored: Locked, when: string): Promise<void> {
  const written = await completeTransaction(client, stored.id, {
    completed_at: when,
    billed_at: stored.billed_at ?? when,
    ...(stored.invoice_number === null
      ? { invoice_number: await nextInvoiceNumber(client), invoice_id: invoiceIdOf(stored.id) }
      : {}),
  });
  if (!written) throw notFound(stored.id);
  if (stored.subscription_id) await subscriptionTransactionPaid(client, stored.subscription_id, stored.id);
}
