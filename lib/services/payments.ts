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
 * lib/services/transactions/discounts.ts); a transaction completed without ever being billed (automatic
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
  type CardDetails,
  type CompletableDetails,
  cardDigits,
  cardType,
  completedDetails,
  type DeclineCode,
  type Payment,
  type PaymentMethodType,
  parseExpiry,
  sandboxDecline,
  sandboxRenewalBehavior,
} from "../billing/payments.ts";
import { canMarkPaid, canPayAtCheckout, checkoutEnabled } from "../billing/transaction-states.ts";
import { config } from "../config.ts";
import { TRANSACTION, transactionEntity } from "../db/entities/transaction.ts";
import { getJson, query, type RawJson, sqlTransaction, storableJson, updateJson, updateRows } from "../db/sql.ts";
import { ApiError, notFound } from "../errors.ts";
import { DEFAULT_MERCHANT_NAME } from "../schemas/account-settings.ts";
import type { CardPaymentInput, CheckoutView, MarkPaidInput } from "../schemas/payment.ts";
import type { BillingDetails, Transaction, TransactionDetails, TransactionInclude } from "../schemas/transaction.ts";
import { ACCOUNT_SETTING_KEYS } from "./account-settings.ts";
import { withAdjustedTotalsOf } from "./adjustments.ts";
import { nextInvoiceNumber, nextInvoiceNumbers } from "./invoice-numbers.ts";
import { saveCard } from "./payment-methods.ts";
import { createFromTransaction, linkColumns } from "./subscriptions/create.ts";
import { subscriptionTransactionPaid, subscriptionTransactionsPaid } from "./subscriptions/recover.ts";

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
  invoice_id: string | null;
  customer_id: string | null;
  address_id: string | null;
  subscription_id: string | null;
  billing_period_starts_at: string | null;
  /** Whether any item has a recurring price: completing it creates a subscription. */
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
            EXISTS (SELECT 1 FROM transaction_items i
                     WHERE i.transaction_id = t.id AND i.quantity > 0 AND i.price->'billing_cycle' IS NOT NULL
                       AND json_typeof(i.price->'billing_cycle') = 'object') AS recurring
       FROM transactions t WHERE t.id = ANY($1) ORDER BY t.id FOR UPDATE`,
    [ids],
    client,
  );
}

/**
 * Declined attempts the checkout takes. The endpoint is public (the link is the credential), so
 * card testing (trying numbers until one passes) must be cut off; but a limit per transaction alone
 * (it was 20 declines, for ever) let anyone holding the link lock the customer out of paying by
 * burning the attempts. So two sliding windows over `checkout_declines`, neither permanent:
 * - per client address and transaction, 5 declines in 15 minutes: a stranger spends his own
 *   budget, never the customer's, and a customer mistyping a card waits at most 15 minutes;
 * - per transaction, from every address together, 30 declines an hour: the backstop against card
 *   testing spread over many addresses. Locking a customer out this way takes 6 addresses and
 *   lasts an hour at most.
 * `payments` keeps the newest MAX_STORED_DECLINES declined attempts (and every capture), so it
 * cannot grow without bound either.
 */
export const DECLINE_LIMITS = {
  perClient: { max: 5, windowSeconds: 15 * 60 },
  perTransaction: { max: 30, windowSeconds: 60 * 60 },
} as const;
export const MAX_STORED_DECLINES = 50;

/**
 * Refuses a payment attempt when the client or the transaction has used its declines (429 with
 * Retry-After: the seconds until the oldest decline counted leaves its window). Under the row lock.
 */
async function checkDeclineLimits(client: pg.PoolClient, id: string, clientKey: string): Promise<void> {
  const { perClient, perTransaction } = DECLINE_LIMITS;
  const rows = await query<{ client_key: string; age: number }>(
    `SELECT client_key, extract(epoch FROM now() - created_at)::float8 AS age
       FROM checkout_declines
      WHERE transaction_id = $1 AND created_at > now() - $2 * interval '1 second'
      ORDER BY created_at DESC`,
    [id, perTransaction.windowSeconds],
    client,
  );
  // Newest first: the decline whose expiry frees one attempt is the max-th newest.
  const wait = (ages: number[], max: number, window: number) => Math.max(1, Math.ceil(window - ages[max - 1]));
  const mine = rows.filter((r) => r.client_key === clientKey && r.age < perClient.windowSeconds).map((r) => r.age);
  let retryAfter = 0;
  let detail = "";
  if (rows.length >= perTransaction.max) {
    retryAfter = wait(
      rows.map((r) => r.age),
      perTransaction.max,
      perTransaction.windowSeconds,
    );
    detail = `Transaction ${id} has had ${perTransaction.max} declined payment attempts in the last hour`;
  } else if (mine.length >= perClient.max) {
    retryAfter = wait(mine, perClient.max, perClient.windowSeconds);
    detail = `${perClient.max} payment attempts for transaction ${id} were declined from this address in the last 15 minutes`;
  }
  if (retryAfter > 0) {
    throw new ApiError(
      "too_many_requests",
      `${detail}: try again in ${retryAfter} seconds, or with another card later.`,
      {
        headers: { "Retry-After": String(retryAfter) },
      },
    );
  }
}

/** Deletes the checkout's declined attempts older than a day (the hourly retention job). */
export async function purgeCheckoutDeclines(): Promise<number> {
  const rows = await query<{ n: number }>(
    "WITH d AS (DELETE FROM checkout_declines WHERE created_at < now() - interval '1 day' RETURNING 1) SELECT count(*)::int AS n FROM d",
  );
  return rows[0]?.n ?? 0;
}

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
): Promise<void> {
  if (buysSubscription(stored)) await completeBuyingSubscription(client, stored, payment, paymentMethodId);
  else await completeWithPayments(client, [{ stored, payment }]);
}

/** Whether completing the transaction creates its subscription (recurring items, no subscription yet). */
function buysSubscription(stored: Locked): boolean {
  return (
    stored.recurring && stored.subscription_id === null && stored.customer_id !== null && stored.address_id !== null
  );
}

/** What completion writes besides the status: the payment first in `payments`, the fees, billed_at. */
async function paidColumns(
  client: pg.PoolClient,
  completions: readonly { stored: Locked; payment: Payment }[],
): Promise<{ payments: Payment[]; details: TransactionDetails; billed_at: string | null }[]> {
  const fees = { percent: config.fees.percent, fixed: config.fees.fixed };
  // Credits made on the invoice before it was paid stay subtracted in the adjusted totals.
  const details = await withAdjustedTotalsOf(
    client,
    completions.map(({ stored }) => ({
      transactionId: stored.id,
      details: completedDetails(stored.details, fees) as TransactionDetails,
    })),
  );
  for (const { stored } of completions) {
    if (stored.billed_at === null && stored.discount_id) {
      await query("UPDATE discounts SET times_used = times_used + 1 WHERE id = $1", [stored.discount_id], client);
    }
  }
  return completions.map(({ stored, payment }, i) => ({
    payments: [payment, ...stored.payments],
    details: details[i],
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
  return stored.map((s) =>
    s.invoice_number === null
      ? { invoice_number: numbers[next++], invoice_id: `inv_${s.id.slice("txn_".length)}` }
      : { invoice_number: s.invoice_number, invoice_id: s.invoice_id },
  );
}

/**
 * Completes many locked transactions, each with its captured payment, in one statement (with their
 * events transaction.updated, transaction.paid, transaction.completed): the completion of
 * completeWithPayment for transactions that create no subscription (a batch of renewals is many;
 * a checkout payment is one).
 */
export async function completeWithPayments(
  client: pg.PoolClient,
  completions: readonly { stored: Locked; payment: Payment }[],
): Promise<void> {
  if (completions.length === 0) return;
  const paid = await paidColumns(client, completions);
  const invoices = await invoiceColumns(
    client,
    completions.map((c) => c.stored),
  );
  const rows = completions.map(({ stored, payment }, i) => ({
    id: stored.id,
    ...paid[i],
    status: "completed",
    completed_at: payment.captured_at,
    ...invoices[i],
  }));
  const written = await updateRows(
    TRANSACTION,
    rows,
    ["transaction.updated", "transaction.paid", "transaction.completed"],
    client,
  );
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
): Promise<void> {
  const [paid] = await paidColumns(client, [{ stored, payment }]);
  const [invoice] = await invoiceColumns(client, [stored]);
  const where = { sql: "t.id = $1", values: [stored.id] };
  await updateJson(
    TRANSACTION,
    where,
    {
      payments: storableJson(paid.payments),
      details: storableJson(paid.details),
      billed_at: paid.billed_at,
      status: "paid",
    },
    ["transaction.updated", "transaction.paid"],
    client,
  );
  const created = await createFromTransaction(
    client,
    stored.id,
    new Date(payment.captured_at as string),
    paymentMethodId,
  );
  const link = created ? linkColumns(created, stored.billing_period_starts_at !== null) : {};
  const written = await updateJson(
    TRANSACTION,
    where,
    { status: "completed", completed_at: payment.captured_at, ...invoice, ...link },
    ["transaction.updated", "transaction.completed"],
    client,
  );
  if (!written) throw notFound(stored.id);
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
export async function payAtCheckout(id: string, card: CardPaymentInput, clientKey = "unknown"): Promise<PaymentResult> {
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
    await checkDeclineLimits(client, id, clientKey);
    const digits = cardDigits(card.number);
    const expiry = parseExpiry(card.expiry) ?? { month: 0, year: 0 };
    const decline: DeclineCode | null = sandboxDecline(digits);
    const now = await nowText(client);
    const payment: Payment = {
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: randomUUID(),
      payment_method_id: null,
      amount: stored.details.totals.balance,
      status: decline ? "error" : "captured",
      error_code: decline,
      method_details: {
        type: "card",
        underlying_details: null,
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
      await query(
        "INSERT INTO checkout_declines (transaction_id, client_key) VALUES ($1, $2)",
        [id, clientKey],
        client,
      );
      let declines = 0;
      const kept = [payment, ...stored.payments].filter(
        (p) => p.status !== "error" || ++declines <= MAX_STORED_DECLINES,
      );
      await updateJson(
        TRANSACTION,
        { sql: "t.id = $1", values: [id] },
        { payments: storableJson(kept) },
        ["transaction.updated", "transaction.payment_failed"],
        client,
      );
      return paymentResult(id, stored.status, payment);
    }
    // A card that buys a subscription, or pays one's failed charge, is saved for its renewals
    // (reference §9, §13: origin subscription) and becomes the card the subscription charges.
    let paymentMethodId: string | null = null;
    const buysSubscription = stored.recurring && stored.subscription_id === null;
    const paysSubscription = stored.subscription_id !== null && stored.collection_mode === "automatic";
    if ((buysSubscription || paysSubscription) && stored.customer_id && stored.address_id) {
      paymentMethodId = await saveCard(
        client,
        stored.customer_id,
        stored.address_id,
        payment.method_details.card as CardDetails,
        sandboxRenewalBehavior(digits),
      );
      payment.stored_payment_method_id = paymentMethodId;
      payment.payment_method_id = paymentMethodId;
      if (paysSubscription) {
        await query(
          "UPDATE subscriptions SET payment_method_id = $2 WHERE id = $1",
          [stored.subscription_id, paymentMethodId],
          client,
        );
      }
    }
    await completeWithPayment(client, stored, payment, paymentMethodId);
    return paymentResult(id, "completed", payment);
  });
}

// ---------------------------------------------------------------------------------------------
// Saved cards (subscriptions)

/** A saved card as a charge needs it (lib/services/payment-methods.ts savedCard). */
export interface ChargeableCard {
  id: string;
  card: CardDetails;
  behavior: "pays" | "declines_renewals";
}

/**
 * Charges a subscription's saved card for what the locked transaction still owes (renewals, dunning
 * retries, immediate charges), as of `at` (the subscription's clock). Captured: the one completion.
 * Declined (the sandbox card declines later charges, or no card is saved): an `error` payment with
 * `transaction.updated` and `transaction.payment_failed`, and, with `pastDue`, the move to
 * `past_due` (`transaction.past_due`) in the same statement. A transaction that owes nothing is
 * completed without a payment.
 */
export async function chargeSavedCard(
  client: pg.PoolClient,
  transactionId: string,
  saved: ChargeableCard | null,
  at: Date,
  pastDue: boolean,
): Promise<"completed" | "declined"> {
  const [outcome] = await chargeSavedCards(client, [{ transactionId, saved, at, pastDue }]);
  return outcome;
}

/** A charge of chargeSavedCards: chargeSavedCard's arguments. */
export interface SavedCardCharge {
  transactionId: string;
  saved: ChargeableCard | null;
  at: Date;
  pastDue: boolean;
}

/**
 * chargeSavedCard for many transactions (a batch of renewals): locked together, and the captured
 * ones completed together (completeWithPayments: one statement, one block of invoice numbers).
 * Declines and transactions that owe nothing, the unusual cases, are written one by one. Returns
 * each charge's outcome, in the order of `charges`.
 */
export async function chargeSavedCards(
  client: pg.PoolClient,
  charges: readonly SavedCardCharge[],
): Promise<("completed" | "declined")[]> {
  const locked = new Map(
    (
      await lockForPayments(
        client,
        charges.map((c) => c.transactionId),
      )
    ).map((row) => [row.id, row]),
  );
  const outcomes: ("completed" | "declined")[] = [];
  const captured: { stored: Locked; payment: Payment }[] = [];
  for (const { transactionId, saved, at, pastDue } of charges) {
    const stored = locked.get(transactionId);
    if (!stored) throw notFound(transactionId);
    if (stored.status === "completed" || stored.status === "paid") {
      outcomes.push("completed");
      continue;
    }
    const when = at.toISOString();
    // Nothing to collect (e.g. paid by credit): completed without a payment, in any environment.
    if (stored.details.totals.balance === "0") {
      await completeOwingNothing(client, stored, when);
      outcomes.push("completed");
      continue;
    }
    refuseOutsideSandbox();
    const declined = saved === null || saved.behavior === "declines_renewals";
    const payment: Payment = {
      payment_attempt_id: randomUUID(),
      stored_payment_method_id: saved?.id ?? randomUUID(),
      payment_method_id: saved?.id ?? null,
      amount: stored.details.totals.balance,
      status: declined ? "error" : "captured",
      error_code: declined ? "declined" : null,
      method_details: { type: "card", underlying_details: null, card: saved?.card ?? null },
      created_at: when,
      captured_at: declined ? null : when,
    };
    if (declined) {
      await recordDecline(client, stored, payment, pastDue);
      outcomes.push("declined");
    } else {
      captured.push({ stored, payment });
      outcomes.push("completed");
    }
  }
  await completeWithPayments(client, captured);
  return outcomes;
}

/** Completes a locked transaction whose balance is zero, without a payment. */
async function completeOwingNothing(client: pg.PoolClient, stored: Locked, when: string): Promise<void> {
  const written = await updateJson(
    TRANSACTION,
    { sql: "t.id = $1", values: [stored.id] },
    {
      status: "completed",
      completed_at: when,
      billed_at: stored.billed_at ?? when,
      ...(stored.invoice_number === null
        ? { invoice_number: await nextInvoiceNumber(client), invoice_id: `inv_${stored.id.slice("txn_".length)}` }
        : {}),
    },
    ["transaction.updated", "transaction.completed"],
    client,
  );
  if (!written) throw notFound(stored.id);
  if (stored.subscription_id) await subscriptionTransactionPaid(client, stored.subscription_id, stored.id);
}

/** A declined saved-card charge: the `error` payment, and with `pastDue` the move to past_due. */
async function recordDecline(client: pg.PoolClient, stored: Locked, payment: Payment, pastDue: boolean): Promise<void> {
  const moves = pastDue && stored.status !== "past_due";
  await updateJson(
    TRANSACTION,
    { sql: "t.id = $1", values: [stored.id] },
    { payments: storableJson([payment, ...stored.payments]), status: moves ? "past_due" : undefined },
    moves
      ? ["transaction.updated", "transaction.payment_failed", "transaction.past_due"]
      : ["transaction.updated", "transaction.payment_failed"],
    client,
  );
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
            (SELECT coalesce(json_agg(json_build_object('price_id', i.price_id, 'description', i.price->>'name')
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
      payment_method_id: null,
      amount: stored.details.totals.balance,
      status: "captured",
      error_code: null,
      method_details: { type: method, underlying_details: null, card: null, reference: input?.reference ?? null },
      created_at: now,
      captured_at: now,
    };
    await completeWithPayment(client, stored, payment);
    const written = await getJson(transactionEntity(include), "t.id = $1", [id], client);
    if (!written) throw notFound(id);
    return written;
  });
}

// ---------------------------------------------------------------------------------------------
// Past due

/**
 * When the invoice of the transaction row `t` is due: billed_at + its payment terms (PostgreSQL's
 * calendar arithmetic: the 31st plus a month is the last day of a shorter month, as
 * lib/billing/billing-dates.ts). Null without terms.
 */
export const INVOICE_DUE_AT = `(t.billed_at + ((t.billing_details->'payment_terms'->>'frequency') || ' '
  || (t.billing_details->'payment_terms'->>'interval'))::interval)`;

/**
 * Moves every manual `billed` transaction whose due date (billed_at + payment terms, calendar
 * arithmetic of PostgreSQL intervals) is at or before `at` to `past_due`, with the events
 * `transaction.updated` and `transaction.past_due`. Rows another worker holds are skipped (it is
 * moving them, or paying them). Returns the IDs moved. Run by the worker's cron
 * (lib/events/worker.ts) and callable directly. Invoices of subscriptions are left to the
 * subscription engine (lib/services/subscriptions/engine.ts), which moves the subscription with
 * them at the due date on the subscription's own clock.
 */
export async function markPastDueTransactions(at: Date = new Date(), batch = 500): Promise<string[]> {
  const moved: string[] = [];
  for (;;) {
    const ids = await sqlTransaction(async (client) => {
      const due = await query<{ id: string }>(
        `SELECT t.id FROM transactions t
          WHERE t.status = 'billed' AND t.collection_mode = 'manual' AND t.billed_at IS NOT NULL
            AND t.subscription_id IS NULL
            AND ${INVOICE_DUE_AT} <= $1
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
