/**
 * Payment attempts at a processor that leaves the server (`payment_attempts`, lib/payments/
 * processor.ts rule 1). An attempt is written and committed before the processor is called; its ID
 * is the root of the idempotency keys sent for it (lib/payments/stripe.ts idempotencyKey) and the
 * `payment_attempt_id` of the payment it becomes. lib/services/payments/settle.ts writes its outcome
 * to the transaction exactly once (`settled_at`); what is never settled, the reconciliation job
 * settles by asking the processor.
 */
import { randomUUID } from "node:crypto";
import { config } from "../config.ts";
import { type Queryable, query } from "../db/sql.ts";
import { notFound } from "../errors.ts";
import type { PaymentAttemptView } from "../schemas/payment-attempt.ts";
import { stripeDashboardUrl } from "./stripe.ts";

export type AttemptKind = "checkout" | "off_session" | "setup";
export type AttemptStatus = "started" | "requires_action" | "processing" | "succeeded" | "failed" | "canceled";

export interface PaymentAttempt {
  id: string;
  transaction_id: string;
  processor: "stripe";
  processor_account: string;
  kind: AttemptKind;
  status: AttemptStatus;
  /** Minor units, as text. */
  amount: string;
  currency_code: string;
  payment_method_id: string | null;
  processor_customer: string | null;
  processor_payment: string | null;
  /** What a failed off-session charge does to the transaction: move it to past_due, or keep it. */
  on_failure: "past_due" | "keep";
  /** What the subscription engine does with the outcome (renewal, dunning, immediate), or null. */
  purpose: string | null;
  error_code: string | null;
  error_message: string | null;
  settled_at: string | null;
  created_at: string;
}

const COLUMNS = `id::text, transaction_id, processor, processor_account, kind, status, amount::text AS amount, currency_code,
  payment_method_id, processor_customer, processor_payment, on_failure, purpose, error_code, error_message,
  to_char(settled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS settled_at,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at`;

export interface NewAttempt {
  transactionId: string;
  processorAccount: string;
  kind: AttemptKind;
  amount: bigint | string;
  currencyCode: string;
  paymentMethodId?: string | null;
  processorCustomer?: string | null;
  onFailure?: "past_due" | "keep";
  purpose?: string | null;
}

/**
 * Records new attempts (one statement for a batch of renewals). Commit them before calling the
 * processor: `on` may be the caller's transaction, which must commit first.
 */
export async function recordAttempts(attempts: readonly NewAttempt[], on?: Queryable): Promise<PaymentAttempt[]> {
  if (attempts.length === 0) return [];
  return query<PaymentAttempt>(
    `INSERT INTO payment_attempts (id, transaction_id, processor, processor_account, kind, amount, currency_code,
                                   payment_method_id, processor_customer, on_failure, purpose)
     SELECT a.id, a.transaction_id, 'stripe', a.processor_account, a.kind, a.amount, a.currency_code,
            a.payment_method_id, a.processor_customer, a.on_failure, a.purpose
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
            AS a(id, transaction_id, processor_account, kind, amount, currency_code, payment_method_id, processor_customer, on_failure, purpose)
     RETURNING ${COLUMNS}`,
    [
      attempts.map(() => randomUUID()),
      attempts.map((a) => a.transactionId),
      attempts.map((a) => a.processorAccount),
      attempts.map((a) => a.kind),
      attempts.map((a) => String(a.amount)),
      attempts.map((a) => a.currencyCode),
      attempts.map((a) => a.paymentMethodId ?? null),
      attempts.map((a) => a.processorCustomer ?? null),
      attempts.map((a) => a.onFailure ?? "keep"),
      attempts.map((a) => a.purpose ?? null),
    ],
    on,
  );
}

export async function recordAttempt(attempt: NewAttempt, on?: Queryable): Promise<PaymentAttempt> {
  const rows = await recordAttempts([attempt], on);
  const [row] = rows;
  if (rows.length !== 1 || row === undefined)
    throw new Error(`recordAttempts wrote ${rows.length} rows for one attempt`);
  return row;
}

export async function attemptById(id: string, on?: Queryable): Promise<PaymentAttempt | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const [row] = await query<PaymentAttempt>(`SELECT ${COLUMNS} FROM payment_attempts WHERE id = $1`, [id], on);
  return row ?? null;
}

export async function attemptByProcessorPayment(reference: string, on?: Queryable): Promise<PaymentAttempt | null> {
  const [row] = await query<PaymentAttempt>(
    `SELECT ${COLUMNS} FROM payment_attempts WHERE processor_payment = $1`,
    [reference],
    on,
  );
  return row ?? null;
}

/** Locks the attempt's row (inside the settling transaction, after the transaction's row). */
export async function lockAttempt(id: string, on: Queryable): Promise<PaymentAttempt | null> {
  const [row] = await query<PaymentAttempt>(
    `SELECT ${COLUMNS} FROM payment_attempts WHERE id = $1 FOR UPDATE`,
    [id],
    on,
  );
  return row ?? null;
}

/** Notes the processor's payment ID (pi_) of an attempt as soon as the processor gives it. */
export async function noteProcessorPayment(id: string, reference: string, status: AttemptStatus): Promise<void> {
  await query(
    `UPDATE payment_attempts SET processor_payment = $2, status = CASE WHEN settled_at IS NULL THEN $3 ELSE status END,
            updated_at = now()
      WHERE id = $1 AND (processor_payment IS NULL OR processor_payment = $2)`,
    [id, reference, status],
  );
}

/** A transaction's attempts, newest first, as the dashboard shows them (app/api/transactions/…/payment-attempts). */
export async function attemptsOfTransaction(transactionId: string): Promise<PaymentAttemptView[]> {
  const [exists] = await query("SELECT 1 FROM transactions WHERE id = $1", [transactionId]);
  if (!exists) throw notFound(transactionId);
  const rows = await query<PaymentAttempt & { livemode: boolean }>(
    `SELECT ${COLUMNS} FROM payment_attempts WHERE transaction_id = $1 ORDER BY created_at DESC, id LIMIT 200`,
    [transactionId],
  );
  return rows.map((row) => ({
    id: row.id,
    processor: row.processor,
    kind: row.kind,
    status: row.status,
    amount: row.amount,
    currency_code: row.currency_code,
    processor_reference: row.processor_payment,
    dashboard_url: row.processor_payment
      ? stripeDashboardUrl(row.processor_payment, config.environment === "live")
      : null,
    error_code: row.error_code,
    error_message: row.error_message,
    settled_at: row.settled_at,
    created_at: row.created_at,
  }));
}

/** Locks the attempts of `ids` (in ID order), as lockAttempt does one; unknown IDs are missing. */
export async function lockAttempts(ids: readonly string[], on: Queryable): Promise<PaymentAttempt[]> {
  return query<PaymentAttempt>(
    `SELECT ${COLUMNS} FROM payment_attempts WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    [ids],
    on,
  );
}
