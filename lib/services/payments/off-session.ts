/**
 * Off-session charges of saved methods held by Stripe (renewals, dunning retries, one-time charges,
 * changes billed now), in the processor's discipline (lib/payments/processor.ts rules 1 and 2):
 *
 * 1. **Record** — inside the caller's database transaction (the subscription engine's, an API
 *    operation's), chargeSavedCards records a `payment_attempts` row per charge (kind off_session,
 *    `on_failure`, `purpose`) and leaves the transaction `billed`. Nothing is sent to Stripe there:
 *    the attempts are collected by the surrounding `offSessionScope` and charged only once that
 *    database transaction has committed.
 * 2. **Call** — `chargeAttempts`, after the commit, with no database transaction open and no row
 *    locked: a PaymentIntent per attempt (`confirm`, `off_session`, the Stripe customer and the
 *    saved `pm_`, the attempt's amount and currency, metadata {transaction_id, attempt_id}) with the
 *    idempotency key `idempotencyKey(attempt.id, "charge")`, a bounded number at a time.
 * 3. **Settle** — the answers in a new database transaction, exactly once
 *    (lib/services/payments/settle.ts settleAttempts, the batch form of settleAttempt: a batch of
 *    renewals completes in one statement), with the caller's follow-up (`onSettled`: the
 *    subscription's past_due, dunning schedule…) in that same transaction.
 *
 * A crash between 2 and 3 (or a lost answer) leaves the attempt unsettled: the reconciliation job
 * (lib/services/payments/reconcile.ts) sends the very same request again (same key, same parameters:
 * `intentParams` reads them all from the attempt's row), Stripe replays its first answer, and the
 * attempt is settled with the same follow-up (rebuilt from `purpose`). A charge never happens twice
 * and is never lost.
 *
 * Refusals without a call: a Stripe method when Stripe is no longer configured, or a method of
 * another Stripe account than the active one, fails as a declined charge with a plain message.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type pg from "pg";
import type Stripe from "stripe";
import { query, queryExactlyOne } from "../../db/sql.ts";
import { type PaymentAttempt, recordAttempts } from "../../payments/attempts.ts";
import type { PaymentErrorCode, ProcessorPayment } from "../../payments/processor.ts";
import {
  activeStripe,
  failureOfError,
  idempotencyKey,
  OFF_SESSION_EXPAND,
  paymentOfIntent,
  readIntent,
  type StripeContext,
  stripeCurrency,
  stripeCustomerFor,
  withoutCallSite,
} from "../../payments/stripe.ts";
import { type Settled, settleAttempt, settleAttempts } from "./settle.ts";

/** What a settled off-session charge leads to, in the settling database transaction. */
export type OnSettled = (client: pg.PoolClient, settled: Settled) => Promise<void>;

/** The follow-up of an attempt, from its row (its `purpose`): the same after a crash as before. */
export type FollowUpOf = (attempt: PaymentAttempt) => OnSettled | undefined;

// ---------------------------------------------------------------------------------------------
// Record (inside the caller's database transaction)

/** A charge of a Stripe method, as chargeSavedCards records it. */
export interface StripeCharge {
  transactionId: string;
  customerId: string | null;
  amount: string;
  currencyCode: string;
  method: { id: string; processor_account: string | null };
  pastDue: boolean;
  purpose: string | null;
}

interface Scope {
  attempts: PaymentAttempt[];
}

const scope = new AsyncLocalStorage<Scope>();

/**
 * Records the attempts of `charges` in the caller's database transaction, for the surrounding
 * `offSessionScope` to charge once it commits. Outside any scope (a code path that forgot one) the
 * attempts still commit, unsettled: the reconciliation job charges them a minute later.
 */
export async function recordStripeCharges(
  client: pg.PoolClient,
  charges: readonly StripeCharge[],
): Promise<PaymentAttempt[]> {
  if (charges.length === 0) return [];
  const customers = await query<{ customer_id: string; processor_account: string; reference: string }>(
    `SELECT customer_id, processor_account, reference FROM processor_customers
      WHERE processor = 'stripe' AND customer_id = ANY($1)`,
    [charges.map((c) => c.customerId).filter((id) => id !== null)],
    client,
  );
  const customerOf = new Map(customers.map((c) => [`${c.customer_id} ${c.processor_account}`, c.reference]));
  const attempts = await recordAttempts(
    charges.map((c) => ({
      transactionId: c.transactionId,
      processorAccount: c.method.processor_account ?? "",
      kind: "off_session" as const,
      amount: c.amount,
      currencyCode: c.currencyCode,
      paymentMethodId: c.method.id,
      processorCustomer: customerOf.get(`${c.customerId} ${c.method.processor_account}`) ?? null,
      onFailure: c.pastDue ? ("past_due" as const) : ("keep" as const),
      purpose: c.purpose,
    })),
    client,
  );
  const current = scope.getStore();
  if (current) current.attempts.push(...attempts);
  else
    console.error(
      `[payments] ${attempts.length} off-session attempt(s) recorded outside a scope: reconciliation charges them`,
    );
  return attempts;
}

/** The attempts recorded so far in the current scope (an operation seals its own before committing). */
export function scopedAttempts(): readonly PaymentAttempt[] {
  return scope.getStore()?.attempts ?? [];
}

/**
 * Runs `fn` (which opens and commits its own database transaction) collecting the attempts it
 * records, then charges them (chargeAttempts) once it has returned: after the commit. An error of
 * `fn` rolled its attempts back with its transaction: nothing to charge.
 */
export async function offSessionScope<T>(
  fn: () => Promise<T>,
  followUpOf: FollowUpOf,
): Promise<{ result: T; settled: ChargeResult[] }> {
  const collected: Scope = { attempts: [] };
  const result = await scope.run(collected, fn);
  if (collected.attempts.length === 0) return { result, settled: [] };
  const settled = await chargeAttempts(collected.attempts, followUpOf);
  return { result, settled };
}

// ---------------------------------------------------------------------------------------------
// Call and settle (no database transaction open)

/** How many charges are in flight at once per process (BILLING_STRIPE_CONCURRENCY, default 32). */
export function chargeConcurrency(): number {
  const n = Number(process.env.BILLING_STRIPE_CONCURRENCY ?? 32);
  return Number.isInteger(n) && n > 0 ? n : 32;
}

/**
 * Test seams (tests and the kill -9 test's child process set them; nothing in production does):
 * `afterAnswer` runs once Stripe answered and before the answer is settled.
 */
export const offSessionHooks: { afterAnswer?: (attempt: PaymentAttempt, payment: ProcessorPayment) => Promise<void> } =
  {};

/** One attempt's fate: settled (with what settling did), or still in doubt (the reconciliation's). */
export type ChargeResult =
  | { attempt: PaymentAttempt; settled: Settled; payment: ProcessorPayment; error?: undefined }
  | { attempt: PaymentAttempt; settled: null; payment: null; error: unknown };

/** Runs `work` over `items`, at most `limit` at a time, in order of start. */
export async function boundedEach<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  // One iterator shared by the lanes: each lane takes the next item not yet taken.
  const next = items.entries();
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (const [i, item] of next) results[i] = await work(item);
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Charges recorded attempts at Stripe and settles each answer (see the top of this file). An
 * attempt whose answer is lost (network, Stripe's 5xx) stays unsettled for the reconciliation job;
 * a settlement aborted by a deadlock is retried.
 */
export async function chargeAttempts(
  attempts: readonly PaymentAttempt[],
  followUpOf: FollowUpOf,
): Promise<ChargeResult[]> {
  let ctx: StripeContext | null = null;
  let unreachable: unknown = null;
  try {
    ctx = await activeStripe();
  } catch (error) {
    unreachable = error; // the account could not be asked: every attempt stays in doubt
  }
  const methods = await savedMethodsOf(attempts);
  const answers = await boundedEach(attempts, chargeConcurrency(), async (attempt) => {
    try {
      if (unreachable) throw unreachable;
      const payment = await chargeAttempt(ctx, attempt, methods.get(attempt.payment_method_id ?? "") ?? null);
      if (offSessionHooks.afterAnswer) await offSessionHooks.afterAnswer(attempt, payment);
      return { attempt, payment, error: null };
    } catch (error) {
      return { attempt, payment: null, error };
    }
  });
  const answered = answers.filter((a) => a.payment !== null) as {
    attempt: PaymentAttempt;
    payment: ProcessorPayment;
  }[];
  const settled = new Map<string, Settled>();
  // Settled together (one database transaction, one completion statement for the successes);
  // if the batch fails, one by one, so that one bad answer does not hold back the others.
  try {
    const batch = await settleAttempts(
      answered.map(({ attempt, payment }) => ({ attemptId: attempt.id, payment, onSettled: followUpOf(attempt) })),
    );
    for (const result of batch) settled.set(result.attempt.id, result);
  } catch (error) {
    if (answered.length > 1)
      console.error(`[payments] batch settlement failed, one by one: ${(error as Error).message}`);
    for (const { attempt, payment } of answered) {
      try {
        settled.set(attempt.id, await settleWithRetry(attempt.id, payment, followUpOf(attempt)));
      } catch (one) {
        console.error(`[payments] settling attempt ${attempt.id} failed: ${(one as Error).message}`);
      }
    }
  }
  return answers.map(({ attempt, payment, error }): ChargeResult => {
    const done = settled.get(attempt.id);
    if (payment && done) return { attempt, settled: done, payment };
    console.error(
      `[payments] off-session attempt ${attempt.id} left to reconciliation: ${(error as Error | null)?.message ?? "not settled"}`,
    );
    return { attempt, settled: null, payment: null, error: error ?? new Error("not settled") };
  });
}

/**
 * Sends the attempt's PaymentIntent (or, when its pi_ is known, reads it) and answers Stripe's
 * verdict. A card's refusal (StripeCardError, authentication_required) is a failed payment; so is a
 * request Stripe refuses for its parameters (the saved method detached, the customer deleted):
 * nothing was charged. Anything else (no answer) throws: the attempt is in doubt.
 */
export async function chargeAttempt(
  ctx: StripeContext | null,
  attempt: PaymentAttempt,
  method?: SavedStripeMethod | null,
): Promise<ProcessorPayment> {
  if (!ctx) {
    return refusal(
      attempt,
      "psp_error",
      "The card is saved at Stripe, but Stripe is not configured any more: connect Stripe again (Settings → Payments), or ask the customer for a new payment method.",
    );
  }
  if (attempt.processor_account !== ctx.account) {
    return refusal(
      attempt,
      "psp_error",
      `The card is saved at another Stripe account (${attempt.processor_account || "unknown"}) than the one connected now (${ctx.account}): ask the customer for a new payment method.`,
    );
  }
  if (attempt.processor_payment?.startsWith("pi_")) return readIntent(ctx, attempt.processor_payment);
  const params = await intentParams(ctx, attempt, method === undefined ? await savedMethodOf(attempt) : method);
  if (!params) {
    return refusal(attempt, "psp_error", "The saved payment method is no longer available at Stripe.");
  }
  try {
    const intent = await withoutCallSite(() =>
      ctx.stripe.paymentIntents.create(params, { idempotencyKey: idempotencyKey(attempt.id, "charge") }),
    );
    return paymentOfIntent(intent);
  } catch (error) {
    const failed = failureOfError(error, {
      reference: "",
      amount: BigInt(attempt.amount),
      currencyCode: attempt.currency_code,
      attemptId: attempt.id,
      transactionId: attempt.transaction_id,
    });
    // Stripe's card error carries the PaymentIntent, whose charge and method say what failed.
    if (failed) return failed;
    const e = error as { type?: string; statusCode?: number };
    if (e.type === "StripeInvalidRequestError" && e.statusCode !== undefined && e.statusCode < 500) {
      return refusal(attempt, "psp_error", `Stripe refused the charge: ${(error as Error).message}`);
    }
    throw error;
  }
}

/**
 * The PaymentIntent of an off-session attempt, every parameter from the attempt's row, so that a
 * retry (reconciliation) is the same request and Stripe replays its answer. The Stripe customer is
 * written to the attempt before the first call when it was not known at recording time.
 */
async function intentParams(
  ctx: StripeContext,
  attempt: PaymentAttempt,
  method: SavedStripeMethod | null,
): Promise<Stripe.PaymentIntentCreateParams | null> {
  if (!method?.processor_reference) return null;
  let customer = attempt.processor_customer;
  if (!customer) {
    customer = await stripeCustomerFor(ctx, method.customer_id);
    const row = await queryExactlyOne<{ processor_customer: string }>(
      `UPDATE payment_attempts SET processor_customer = coalesce(processor_customer, $2), updated_at = now()
        WHERE id = $1 RETURNING processor_customer`,
      [attempt.id, customer],
    );
    customer = row.processor_customer;
  }
  return {
    amount: Number(attempt.amount),
    currency: stripeCurrency(attempt.currency_code),
    customer,
    payment_method: method.processor_reference,
    confirm: true,
    off_session: true,
    metadata: { transaction_id: attempt.transaction_id, attempt_id: attempt.id },
    expand: OFF_SESSION_EXPAND,
  };
}

/** What a charge needs of the saved method: Stripe's pm_ and our customer. */
export interface SavedStripeMethod {
  id: string;
  processor_reference: string | null;
  customer_id: string;
}

/** The saved methods of `attempts`, by ID, in one query (a batch of renewals). */
async function savedMethodsOf(attempts: readonly PaymentAttempt[]): Promise<Map<string, SavedStripeMethod>> {
  const ids = [...new Set(attempts.map((a) => a.payment_method_id).filter((id) => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await query<SavedStripeMethod>(
    "SELECT id, processor_reference, customer_id FROM payment_methods WHERE id = ANY($1)",
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

async function savedMethodOf(attempt: PaymentAttempt): Promise<SavedStripeMethod | null> {
  return (await savedMethodsOf([attempt])).get(attempt.payment_method_id ?? "") ?? null;
}

/** A charge refused on our side, before or without Stripe: a failed payment in plain words. */
function refusal(attempt: PaymentAttempt, code: PaymentErrorCode, message: string): ProcessorPayment {
  return {
    status: "failed",
    reference: "",
    charge: null,
    amount: BigInt(attempt.amount),
    currencyCode: attempt.currency_code,
    method: null,
    settlement: null,
    error: { code, processorCode: null, message },
    attemptId: attempt.id,
    transactionId: attempt.transaction_id,
  };
}

/** settleAttempt, again when PostgreSQL broke a deadlock (the settle locks transaction → subscription). */
export async function settleWithRetry(
  attemptId: string,
  payment: ProcessorPayment,
  onSettled: OnSettled | undefined,
): Promise<Settled> {
  for (let tries = 1; ; tries++) {
    try {
      return await settleAttempt(attemptId, payment, onSettled);
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01" || tries >= 3) throw error;
    }
  }
}
