/**
 * The hosted checkout through Stripe (issue 21 §3): what the checkout page does when a Stripe
 * processor is configured (lib/payments/stripe.ts activeStripe). The sandbox's test-card checkout
 * (checkout.ts) is untouched and serves whenever none is.
 *
 * 1. startStripeCheckout — POST /checkout/{id}/payment-intent. Under the transaction's row lock, for
 *    a payable transaction: the open checkout attempt of its balance and currency is found, or a new
 *    one recorded, and committed (one attempt, so one PaymentIntent, however many tabs load the page
 *    at once). Then, outside any database transaction, the attempt's intent is read or created at
 *    Stripe with the idempotency key `billing:<attempt>:create`:
 *    - a balance above 0: a PaymentIntent for the balance (what is left of the grand total) in the
 *      transaction's currency, on the customer's Stripe customer, `automatic_payment_methods`,
 *      metadata {transaction_id, attempt_id}, and `setup_future_usage: off_session` when the
 *      transaction buys a subscription or pays an automatically-collected one (the card is then
 *      saved as our paymtd_ and charged off-session for renewals);
 *    - a balance of 0 (the update-payment-method transaction, a trial bought for nothing): a
 *      SetupIntent (`usage: off_session`) on the customer, settled by settle-setup.ts.
 *    The same intent is answered while its attempt is open: reloading the page, or paying again
 *    after a decline or a failed 3-D Secure challenge, confirms the same intent with another card.
 *    When the balance changed (the transaction was revised), the stale intent is canceled at Stripe
 *    and a new attempt starts.
 * 2. The page confirms the intent with Stripe.js (card data goes from the browser to Stripe only).
 * 3. confirmStripeCheckout — POST /checkout/{id}/payments/confirm {payment_intent}, and the page's
 *    return from a redirect-based 3-D Secure (`?payment_intent=…`): the intent is read from Stripe,
 *    never taken from the browser's word, and settled (settle.ts / settle-setup.ts) exactly once,
 *    whoever comes first of this call and the webhook. The intent must be one this checkout started
 *    for this transaction: any other is 404, and Stripe is not asked.
 *
 * Card testing. The checkout is public, so confirmations are counted against the decline limits of
 * declines.ts: a failed confirmation is a decline of the calling address (checkout_declines), and
 * both endpoints refuse (429) an address or transaction past its limit, so the page stops handing
 * out a client secret and confirming for it. A client secret already handed out can still be
 * confirmed at Stripe directly; Stripe's own card-testing protection (Radar) covers that path.
 */
import type Stripe from "stripe";
import type { Payment } from "../../billing/payments.ts";
import { canPayAtCheckout } from "../../billing/transaction-states.ts";
import { query, queryExactlyOne, queryOne, sqlTransaction } from "../../db/sql.ts";
import { ApiError, notFound } from "../../errors.ts";
import {
  attemptById,
  attemptByProcessorPayment,
  noteProcessorPayment,
  type PaymentAttempt,
  recordAttempt,
} from "../../payments/attempts.ts";
import type { ProcessorPayment } from "../../payments/processor.ts";
import {
  activeStripe,
  idempotencyKey,
  readIntent,
  type StripeContext,
  stripeCurrency,
  stripeCustomerFor,
} from "../../payments/stripe.ts";
import { readSetup } from "../../payments/stripe-setup.ts";
import type { CheckoutConfirmation, CheckoutIntent } from "../../schemas/payment.ts";
import { alreadyPaid, lockForPayment, notPayableAtCheckout } from "./completion.ts";
import { checkDeclineLimits } from "./declines.ts";
import { type Settled, settleAttempt } from "./settle.ts";
import { settleSetup } from "./settle-setup.ts";

/** The Stripe processor, or why the checkout cannot use it. */
async function stripeOrRefuse(): Promise<StripeContext> {
  let ctx: StripeContext | null;
  try {
    ctx = await activeStripe();
  } catch (error) {
    throw unavailable(error);
  }
  if (!ctx) {
    throw new ApiError(
      "bad_request",
      "No payment processor is configured: this checkout takes the sandbox's test cards (POST /checkout/{transaction_id}/payments).",
    );
  }
  return ctx;
}

/** A Stripe call that failed for Stripe's reasons (unreachable, its own error): 503, try again. */
function unavailable(error: unknown): ApiError {
  const e = error as { type?: string; message?: string };
  if (e?.type === "StripeInvalidRequestError") {
    return new ApiError(
      "transaction_not_payable",
      `Stripe refused the payment for this transaction: ${e.message ?? "invalid request"}`,
    );
  }
  return new ApiError(
    "service_unavailable",
    "The payment processor could not be reached. Nothing was charged; try again in a moment.",
    { headers: { "Retry-After": "5" } },
  );
}

/** Whether paying the transaction saves the card for later charges (it buys or pays a subscription). */
function savesMethod(stored: { recurring: boolean; subscription_id: string | null; collection_mode: string }) {
  return (
    (stored.recurring && stored.subscription_id === null) ||
    (stored.subscription_id !== null && stored.collection_mode === "automatic")
  );
}

interface Started {
  attempt: PaymentAttempt;
  savesMethod: boolean;
  /** Open attempts of another amount: their intents are canceled at Stripe. */
  stale: PaymentAttempt[];
}

/** Step 1 of the top of this file: the PaymentIntent (or SetupIntent) the page confirms. */
export async function startStripeCheckout(id: string, clientKey = "unknown"): Promise<CheckoutIntent> {
  const ctx = await stripeOrRefuse();
  // The Stripe customer is made (a Stripe call) before the row is locked.
  const [row] = await query<{ customer_id: string | null }>("SELECT customer_id FROM transactions WHERE id = $1", [id]);
  if (!row) throw notFound(id);
  let customer: string | null = null;
  if (row.customer_id) {
    try {
      customer = await stripeCustomerFor(ctx, row.customer_id);
    } catch (error) {
      throw unavailable(error);
    }
  }
  const once = async () => {
    const started = await findOrRecordAttempt(ctx, id, row.customer_id, customer, clientKey);
    for (const stale of started.stale) await cancelStale(ctx, stale);
    return intentFor(ctx, started);
  };
  // An intent found canceled at Stripe closes its attempt: the second try starts a new one.
  const answer = (await once()) ?? (await once());
  if (!answer) throw unavailable(null);
  return answer;
}

async function findOrRecordAttempt(
  ctx: StripeContext,
  id: string,
  customerId: string | null,
  customer: string | null,
  clientKey: string,
): Promise<Started> {
  return sqlTransaction(async (client) => {
    const stored = await lockForPayment(client, id);
    if (stored.status === "completed" || stored.status === "paid") throw alreadyPaid(id);
    if (!canPayAtCheckout(stored)) throw notPayableAtCheckout(id, stored);
    if (stored.customer_id !== customerId) {
      throw new ApiError("conflict", `Transaction ${id} changed while its checkout opened: load the page again.`);
    }
    await checkDeclineLimits(client, id, clientKey);
    // The row is locked above (lockForPayment).
    const { currency_code } = await queryExactlyOne<{ currency_code: string }>(
      "SELECT currency_code FROM transactions WHERE id = $1",
      [id],
      client,
    );
    const amount = BigInt(stored.details.totals.balance);
    const kind = amount > 0n ? "checkout" : "setup";
    const open = await query<{ id: string; amount: string; currency_code: string }>(
      `SELECT id::text, amount::text, currency_code FROM payment_attempts
        WHERE transaction_id = $1 AND processor_account = $2 AND kind IN ('checkout', 'setup')
          AND settled_at IS NULL AND status <> 'canceled'
        ORDER BY created_at DESC`,
      [id, ctx.account],
      client,
    );
    const same = open.find((a) => a.amount === String(amount) && a.currency_code === currency_code);
    const stale = await Promise.all(
      open.filter((a) => a !== same).map(async (a) => (await attemptById(a.id, client)) as PaymentAttempt),
    );
    const attempt = same
      ? ((await attemptById(same.id, client)) as PaymentAttempt)
      : await recordAttempt(
          {
            transactionId: id,
            processorAccount: ctx.account,
            kind,
            amount,
            currencyCode: currency_code,
            processorCustomer: customer,
          },
          client,
        );
    return { attempt, savesMethod: savesMethod(stored), stale };
  });
}

/** The attempt's intent at Stripe, created once; null when it was canceled there (a new attempt is needed). */
async function intentFor(ctx: StripeContext, started: Started): Promise<CheckoutIntent | null> {
  const { attempt } = started;
  const setup = attempt.kind === "setup";
  const metadata = { transaction_id: attempt.transaction_id, attempt_id: attempt.id };
  let intent: Stripe.PaymentIntent | Stripe.SetupIntent;
  try {
    if (attempt.processor_payment) {
      intent = setup
        ? await ctx.stripe.setupIntents.retrieve(attempt.processor_payment)
        : await ctx.stripe.paymentIntents.retrieve(attempt.processor_payment);
    } else if (setup) {
      intent = await ctx.stripe.setupIntents.create(
        {
          customer: attempt.processor_customer ?? undefined,
          usage: "off_session",
          automatic_payment_methods: { enabled: true },
          metadata,
        },
        { idempotencyKey: idempotencyKey(attempt.id, "create") },
      );
    } else {
      intent = await ctx.stripe.paymentIntents.create(
        {
          amount: Number(attempt.amount),
          currency: stripeCurrency(attempt.currency_code),
          customer: attempt.processor_customer ?? undefined,
          setup_future_usage: started.savesMethod ? "off_session" : undefined,
          automatic_payment_methods: { enabled: true },
          metadata,
        },
        { idempotencyKey: idempotencyKey(attempt.id, "create") },
      );
    }
  } catch (error) {
    throw unavailable(error);
  }
  if (!attempt.processor_payment) await noteProcessorPayment(attempt.id, intent.id, "started");
  if (intent.status === "succeeded") {
    // Paid (a webhook not yet here, a second tab): settle it now and say so.
    await settleFromStripe(ctx, attempt, intent.id);
    throw alreadyPaid(attempt.transaction_id);
  }
  if (intent.status === "canceled") {
    await closeAttempt(attempt.id);
    return null;
  }
  return {
    transaction_id: attempt.transaction_id,
    kind: setup ? "setup" : "payment",
    client_secret: intent.client_secret as string,
    publishable_key: ctx.settings.publishableKey,
    stripe_js_url: ctx.settings.jsUrl,
    amount: attempt.amount,
    currency_code: attempt.currency_code,
  };
}

/** Marks an attempt whose intent is canceled as done: nothing was paid, nothing to settle. */
async function closeAttempt(id: string): Promise<void> {
  await query(
    `UPDATE payment_attempts SET status = 'canceled', settled_at = coalesce(settled_at, now()), updated_at = now()
      WHERE id = $1 AND settled_at IS NULL`,
    [id],
  );
}

/**
 * Cancels the intent of an attempt for an amount the transaction no longer has. If it was paid
 * meanwhile, it is settled instead (the payment is kept; completion decides what it pays).
 */
async function cancelStale(ctx: StripeContext, attempt: PaymentAttempt): Promise<void> {
  if (!attempt.processor_payment) {
    await closeAttempt(attempt.id);
    return;
  }
  try {
    if (attempt.kind === "setup") {
      await ctx.stripe.setupIntents.cancel(
        attempt.processor_payment,
        {},
        { idempotencyKey: idempotencyKey(attempt.id, "cancel") },
      );
    } else {
      await ctx.stripe.paymentIntents.cancel(
        attempt.processor_payment,
        { cancellation_reason: "abandoned" },
        { idempotencyKey: idempotencyKey(attempt.id, "cancel") },
      );
    }
    await closeAttempt(attempt.id);
  } catch {
    // Not cancelable (it succeeded or is processing) or Stripe unreachable: settle what Stripe says.
    try {
      await settleFromStripe(ctx, attempt, attempt.processor_payment);
    } catch {
      // Left to the reconciliation job.
    }
  }
}

/** Reads the attempt's intent from Stripe and settles it (settle.ts or settle-setup.ts). */
async function settleFromStripe(ctx: StripeContext, attempt: PaymentAttempt, reference: string): Promise<Settled> {
  if (attempt.kind === "setup") return settleSetup(attempt.id, await readSetup(ctx, reference));
  return settleAttempt(attempt.id, await readIntent(ctx, reference));
}

/** Step 3 of the top of this file: the confirmation's outcome, read from Stripe and settled. */
export async function confirmStripeCheckout(
  id: string,
  reference: string,
  clientKey = "unknown",
): Promise<CheckoutConfirmation> {
  const ctx = await stripeOrRefuse();
  const attempt = await attemptByProcessorPayment(reference);
  if (
    !attempt ||
    attempt.transaction_id !== id ||
    attempt.processor_account !== ctx.account ||
    (attempt.kind !== "checkout" && attempt.kind !== "setup")
  ) {
    throw new ApiError("not_found", `No payment ${reference} was started at the checkout of transaction ${id}.`);
  }
  if (attempt.settled_at !== null) {
    // Settled already (by this call's twin, the webhook, reconciliation): answered from our rows,
    // without asking Stripe again.
    const status = attempt.status === "succeeded" ? "succeeded" : "canceled";
    return confirmation(
      id,
      attempt.id,
      { outcome: "already_settled", transactionStatus: "", payment: null, attempt },
      {
        status,
        error: null,
      },
    );
  }
  await sqlTransaction(async (client) => {
    await lockForPayment(client, id);
    await checkDeclineLimits(client, id, clientKey);
  });
  let settled: Settled;
  let read: Pick<ProcessorPayment, "status" | "error">;
  try {
    if (attempt.kind === "setup") {
      const setup = await readSetup(ctx, reference);
      read = setup;
      settled = await settleSetup(attempt.id, setup);
    } else {
      const payment = await readIntent(ctx, reference);
      read = payment;
      settled = await settleAttempt(attempt.id, payment);
    }
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw unavailable(e);
  }
  if (settled.outcome === "failed") {
    await query("INSERT INTO checkout_declines (transaction_id, client_key) VALUES ($1, $2)", [id, clientKey]);
  }
  return confirmation(id, attempt.id, settled, read);
}

async function confirmation(
  id: string,
  attemptId: string,
  settled: Settled,
  read: Pick<ProcessorPayment, "status" | "error">,
): Promise<CheckoutConfirmation> {
  const error = read.error;
  const row = await queryOne<{ status: string; payments: Payment[] }>(
    "SELECT status, payments FROM transactions WHERE id = $1",
    [id],
  );
  if (!row) throw notFound(id);
  const paid = row.status === "completed" || row.status === "paid";
  const payment =
    settled.payment ?? row.payments.find((p) => p.payment_attempt_id === attemptId && p.status === "captured") ?? null;
  const status: CheckoutConfirmation["status"] =
    settled.outcome === "completed" || paid
      ? "succeeded"
      : settled.outcome === "pending"
        ? read.status === "processing"
          ? "processing"
          : "requires_action"
        : "failed";
  return {
    transaction_id: id,
    transaction_status: row.status,
    status,
    payment,
    error:
      status === "failed"
        ? {
            code: error?.code ?? settled.payment?.error_code ?? "declined",
            message: error?.message ?? "The payment could not be taken. Try another card.",
          }
        : null,
  };
}
