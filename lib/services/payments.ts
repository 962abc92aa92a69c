/**
 * Payments of transactions: the hosted checkout (sandbox test cards), the merchant's "mark paid"
 * of a manual invoice, the completion both lead to, and the move of unpaid invoices to past_due.
 *
 * Completion (one function for every way of paying). In one database transaction, with the
 * transaction's row locked (a second payment waits and then finds it completed: never charged
 * twice): the captured payment is put first in `payments` (newest first), the fee and earnings
 * are computed by the money engine (lib/billing/payments.ts completedDetails → totals.ts
 * payoutTotals, with the fee of lib/config.ts), `billed_at` is set if it was not, `completed_at`
 * is now, the status `completed`; the events `transaction.updated`, `transaction.paid`,
 * `transaction.completed` are written in the same statement, in the API family's order. They all
 * carry the completed transaction: `paid` (payment captured, processing not done) is passed
 * through at once, as the sandbox processes as it captures.
 *
 * Discount redemptions. A discount's `times_used` counts when a transaction is billed (see
 * lib/services/transactions.ts); a transaction completed without ever being billed (automatic
 * collection at checkout) counts it at completion. It is counted even past `usage_limit`: the
 * limit was checked when the discount was applied, and the customer has paid.
 *
 * A declined card is recorded as a payment with status `error` and its `error_code`, with the
 * events `transaction.updated` and `transaction.payment_failed`; the status does not change (the
 * customer may try another card). An automatically-collected transaction moves to past_due on a
 * failed renewal charge (subscriptions), not on a declined card at checkout.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import {
  type CompletableDetails,
  cardDigits,
  cardType,
  completedDetails,
  type DeclineCode,
  type Payment,
  type PaymentMethodType,
  parseExpiry,
  sandboxDecline,
} from "../billing/payments.ts";
import { canMarkPaid, canPayAtCheckout, checkoutEnabled } from "../billing/transaction-states.ts";
import { config } from "../config.ts";
import { query, type RawJson, sqlTransaction, storableJson, updateJson } from "../db/sql.ts";
import { ApiError, notFound } from "../http/errors.ts";
import { DEFAULT_MERCHANT_NAME } from "../schemas/account-settings.ts";
import type { CardPaymentInput, CheckoutView, MarkPaidInput } from "../schemas/payment.ts";
import type { BillingDetails, Transaction, TransactionDetails, TransactionInclude } from "../schemas/transaction.ts";
import { ACCOUNT_SETTING_KEYS } from "./account-settings.ts";
import { withAdjustedTotals } from "./adjustments.ts";
import { nextInvoiceNumber } from "./invoice-numbers.ts";
import { TRANSACTION, withIncludes } from "./transactions.ts";

interface Locked {
  id: string;
  status: string;
  collection_mode: string;
  billing_details: BillingDetails | null;
  details: CompletableDetails;
  payments: Payment[];
  discount_id: string | null;
  billed_at: string | null;
  invoice_number: string | null;
}

/** The transaction's row, locked until the change commits: concurrent payments take turns. */
async function lockForPayment(client: pg.PoolClient, id: string): Promise<Locked> {
  const [row] = await query<Locked>(
    `SELECT t.id, t.status, t.collection_mode, t.billing_details, t.details, t.payments, t.discount_id,
            t.billed_at::text AS billed_at, t.invoice_number
       FROM transactions t WHERE t.id = $1 FOR UPDATE`,
    [id],
    client,
  );
  if (!row) throw notFound(id);
  return row;
}

/**
 * Declined attempts a transaction keeps taking at checkout: the endpoint is public, so card testing
 * (trying numbers until one passes) is cut off, and `payments` cannot grow without bound.
 */
export const MAX_DECLINED_ATTEMPTS = 20;

function refuseOutsideSandbox(): void {
  if (config.environment !== "sandbox") {
    throw new ApiError(
      "sandbox_only",
      "This is the live environment: the hosted checkout takes only simulated payments, which exist in the sandbox. No card was charged.",
    );
  }
}

function alreadyPaid(id: string): ApiError {
  return new ApiError("transaction_already_paid", `Transaction ${id} is already completed: it was paid.`);
}

async function nowText(client: pg.PoolClient): Promise<string> {
  const [row] = await query<{ now: string }>(
    `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now`,
    [],
    client,
  );
  return row.now;
}

/**
 * Completes the locked transaction with the captured `payment` (see the top of this file). The one
 * completion of every way of paying.
 */
async function completeWithPayment(
  client: pg.PoolClient,
  stored: Locked,
  payment: Payment,
): Promise<RawJson<Transaction>> {
  const completed = completedDetails(stored.details, { percent: config.fees.percent, fixed: config.fees.fixed });
  // Credits made on the invoice before it was paid stay subtracted in the adjusted totals.
  const details = await withAdjustedTotals(client, stored.id, completed as TransactionDetails);
  if (stored.billed_at === null && stored.discount_id) {
    await query("UPDATE discounts SET times_used = times_used + 1 WHERE id = $1", [stored.discount_id], client);
  }
  // An automatically-collected transaction gets its invoice number when it is completed, as in
  // the API family (a manual one got it when billed): its invoice PDF is then available.
  const invoice =
    stored.invoice_number === null
      ? { invoice_number: await nextInvoiceNumber(client), invoice_id: `inv_${stored.id.slice("txn_".length)}` }
      : {};
  const written = await updateJson(
    TRANSACTION,
    { sql: "t.id = $1", values: [stored.id] },
    {
      status: "completed",
      payments: storableJson([payment, ...stored.payments]),
      details: storableJson(details),
      billed_at: stored.billed_at ?? payment.captured_at,
      completed_at: payment.captured_at,
      ...invoice,
    },
    ["transaction.updated", "transaction.paid", "transaction.completed"],
    client,
  );
  if (!written) throw notFound(stored.id);
  return written;
}

/** What a payment endpoint answers: the attempt and the transaction's status after it. */
export interface PaymentResult {
  transaction_id: string;
  transaction_status: string;
  payment: Payment;
}

function paymentResult(id: string, status: string, payment: Payment): PaymentResult {
  return { transaction_id: id, transaction_status: status, payment };
}

// ---------------------------------------------------------------------------------------------
// Hosted checkout

/**
 * A card payment at the hosted checkout (sandbox only). The card is checked by the body schema;
 * its number decides the sandbox's outcome (lib/billing/payments.ts TEST_CARDS).
 */
export async function payAtCheckout(id: string, card: CardPaymentInput): Promise<PaymentResult> {
  refuseOutsideSandbox();
  return sqlTransaction(async (client) => {
    const stored = await lockForPayment(client, id);
    if (stored.status === "completed" || stored.status === "paid") throw alreadyPaid(id);
    if (!canPayAtCheckout(stored)) {
      throw new ApiError(
        "transaction_not_payable",
        checkoutEnabled(stored)
          ? `Transaction ${id} is ${stored.status}: the checkout takes a payment only for a ready automatically-collected transaction or a billed or past-due invoice.`
          : `Transaction ${id} is a manually-collected invoice without checkout (billing_details.enable_checkout is false): it is paid as its invoice says.`,
      );
    }
    if (stored.payments.filter((p) => p.status === "error").length >= MAX_DECLINED_ATTEMPTS) {
      throw new ApiError(
        "too_many_requests",
        `Transaction ${id} has had ${MAX_DECLINED_ATTEMPTS} declined payment attempts: no more are taken at checkout. Contact the seller.`,
      );
    }
    const digits = cardDigits(card.number);
    const expiry = parseExpiry(card.expiry) ?? { month: 0, year: 0 };
    const decline: DeclineCode | null = sandboxDecline(digits);
    const now = await nowText(client);
    const payment: Payment = {
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: randomUUID(),
      amount: stored.details.totals.balance,
      status: decline ? "error" : "captured",
      error_code: decline,
      method_details: {
        type: "card",
        card: {
          type: cardType(digits),
          last4: digits.slice(-4),
          expiry_month: expiry.month,
          expiry_year: expiry.year,
          cardholder_name: card.cardholder_name.trim(),
        },
      },
      created_at: now,
      captured_at: decline ? null : now,
    };
    if (decline) {
      await updateJson(
        TRANSACTION,
        { sql: "t.id = $1", values: [id] },
        { payments: storableJson([payment, ...stored.payments]) },
        ["transaction.updated", "transaction.payment_failed"],
        client,
      );
      return paymentResult(id, stored.status, payment);
    }
    await completeWithPayment(client, stored, payment);
    return paymentResult(id, "completed", payment);
  });
}

interface CheckoutRow {
  id: string;
  status: string;
  collection_mode: string;
  billing_details: BillingDetails | null;
  currency_code: string;
  invoice_number: string | null;
  customer_email: string | null;
  details: Transaction["details"];
  items: { price_id: string; description: string | null }[];
  payments: Payment[];
  merchant_name: string | null;
}

/** What the hosted checkout page shows (no API key: the transaction ID in the link is the capability). */
export async function getCheckout(id: string): Promise<CheckoutView> {
  refuseOutsideSandbox();
  const [row] = await query<CheckoutRow>(
    `SELECT t.id, t.status, t.collection_mode, t.billing_details, t.currency_code, t.invoice_number,
            coalesce(t.customer_snapshot->>'email', (SELECT c.email FROM customers c WHERE c.id = t.customer_id)) AS customer_email,
            t.details, t.payments,
            (SELECT coalesce(json_agg(json_build_object('price_id', i.price_id, 'description', i.price->>'description')
                                      ORDER BY i.position), '[]'::json)
               FROM transaction_items i WHERE i.transaction_id = t.id) AS items,
            (SELECT s.value FROM settings s WHERE s.key = $2) AS merchant_name
       FROM transactions t WHERE t.id = $1`,
    [id, ACCOUNT_SETTING_KEYS.merchant_name],
  );
  if (!row) throw notFound(id);
  const totals = row.details.totals;
  const state: CheckoutView["state"] =
    row.status === "completed" || row.status === "paid" ? "paid" : canPayAtCheckout(row) ? "payable" : "not_payable";
  const last = row.payments[0];
  return {
    transaction_id: row.id,
    status: row.status,
    state,
    environment: config.environment,
    merchant_name: row.merchant_name?.trim() || DEFAULT_MERCHANT_NAME,
    currency_code: row.currency_code,
    invoice_number: row.invoice_number,
    customer_email: row.customer_email,
    items: row.details.line_items.map((line, i) => ({
      id: line.id,
      name: typeof line.product?.name === "string" ? line.product.name : line.price_id,
      description: row.items[i]?.description ?? null,
      quantity: line.quantity,
      tax_rate: line.tax_rate,
      total: line.totals.total,
    })),
    totals: {
      subtotal: totals.subtotal,
      discount: totals.discount,
      tax: totals.tax,
      total: totals.total,
      credit: totals.credit,
      grand_total: totals.grand_total,
    },
    last_payment: last
      ? { status: last.status, error_code: last.error_code, amount: last.amount, created_at: last.created_at }
      : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Manual invoices

/**
 * Records that a billed or past-due manual invoice was paid outside the checkout (offline, or by
 * wire transfer): a captured payment of what is due, then the same completion as a card payment.
 */
export async function markPaid(
  id: string,
  input: MarkPaidInput,
  include?: readonly TransactionInclude[],
): Promise<RawJson<Transaction>> {
  const method: PaymentMethodType = input?.method ?? "offline";
  return sqlTransaction(async (client) => {
    const stored = await lockForPayment(client, id);
    if (stored.status === "completed" || stored.status === "paid") throw alreadyPaid(id);
    if (!canMarkPaid(stored)) {
      throw new ApiError(
        "transaction_not_payable",
        stored.collection_mode === "manual"
          ? `Transaction ${id} is ${stored.status}: only a billed or past-due invoice can be marked as paid.`
          : `Transaction ${id} is automatically collected (and ${stored.status}): only manually-collected invoices are marked as paid; its customer pays at checkout.`,
      );
    }
    const now = await nowText(client);
    const payment: Payment = {
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: randomUUID(),
      amount: stored.details.totals.balance,
      status: "captured",
      error_code: null,
      method_details: { type: method, card: null, reference: input?.reference ?? null },
      created_at: now,
      captured_at: now,
    };
    return withIncludes(await completeWithPayment(client, stored, payment), id, include, client);
  });
}

// ---------------------------------------------------------------------------------------------
// Past due

/**
 * Moves every manual `billed` transaction whose due date (billed_at + payment terms, calendar
 * arithmetic of PostgreSQL intervals) is at or before `at` to `past_due`, with the events
 * `transaction.updated` and `transaction.past_due`. Rows another worker holds are skipped (it is
 * moving them, or paying them). Returns the IDs moved. Run by the worker's cron
 * (lib/events/worker.ts) and callable directly.
 */
export async function markPastDueTransactions(at: Date = new Date(), batch = 500): Promise<string[]> {
  const moved: string[] = [];
  for (;;) {
    const ids = await sqlTransaction(async (client) => {
      const due = await query<{ id: string }>(
        `SELECT t.id FROM transactions t
          WHERE t.status = 'billed' AND t.collection_mode = 'manual' AND t.billed_at IS NOT NULL
            AND t.billed_at + ((t.billing_details->'payment_terms'->>'frequency') || ' '
                               || (t.billing_details->'payment_terms'->>'interval'))::interval <= $1
          ORDER BY t.id LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [at, batch],
        client,
      );
      for (const { id } of due) {
        await updateJson(
          TRANSACTION,
          { sql: "t.id = $1", values: [id] },
          { status: "past_due" },
          ["transaction.updated", "transaction.past_due"],
          client,
        );
      }
      return due.map((row) => row.id);
    });
    moved.push(...ids);
    if (ids.length < batch) return moved;
  }
}
