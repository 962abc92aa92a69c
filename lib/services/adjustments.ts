/**
 * Adjustments: refunds of completed transactions and credits of issued invoices (POST and GET
 * /adjustments, as the API family has them), and the transaction's adjusted totals.
 *
 * Concurrency. Creating an adjustment locks the transaction's row (FOR UPDATE) before reading what
 * earlier adjustments used up, so two refunds at once are checked one after the other and can
 * never together exceed what was charged.
 *
 * Approval (where the API family differs by account). The family creates refunds as
 * `pending_approval` and approves them later (its sandbox every ten minutes); credits need no
 * approval. A refund of a transaction paid through Stripe waits for Stripe (issue 21 §5): it is
 * created `pending_approval` (`adjustment.created`), Stripe is asked for the refund by a job queued
 * with it, and it becomes `approved` or `rejected` (`adjustment.updated`) when Stripe confirms or
 * fails it (settleRefundAdjustment; lib/services/payments/refunds.ts). Any other refund (the
 * sandbox's test cards, a payment marked paid) has nobody to wait for: it is created
 * `pending_approval` and approved in the same database transaction, which writes both events the
 * family sends (`adjustment.created` with status `pending_approval`, then `adjustment.updated` with
 * `approved`), so an integration that waits for the approval works unchanged and never sees a
 * refund stuck in review. A credit is created `approved` (`adjustment.created` only). Pending (not
 * rejected) adjustments already use up what is left. An approved refund or credit gets its
 * credit-note number (CN-000001, gapless) at approval.
 *
 * Chargebacks (a Stripe dispute, from its webhook) are recorded `approved` for the disputed amount
 * (recordChargeback) and, when the dispute is won, marked `reversed` with a `chargeback_reverse`
 * adjustment (reverseChargeback). Neither is created through the API, as in the family.
 *
 * Adjusted totals. `details.adjusted_totals` and `details.adjusted_payout_totals` are stored on
 * the transaction and rewritten, in the adjustment's database transaction, from the sums of its
 * approved adjustments (`refreshAdjustedTotals`), with a `transaction.updated` event: reads, lists
 * and webhook payloads of transactions then carry them at no cost. Whoever changes
 * `details.totals` or `payout_totals` later (completion of a credited invoice) calls
 * `refreshAdjustedTotals` again.
 */
import type pg from "pg";
import {
  type AdjustmentAction,
  type AdjustmentAmounts,
  type AdjustmentTaxMode,
  adjustedPayoutTotals,
  adjustedTotals,
  adjustItem,
  adjustmentAmounts,
  type ChargedLine,
  canCredit,
  canRefund,
  leftOn,
  type Split,
  taxRatesUsed,
} from "../billing/adjustments.ts";
import { minOf, parseAmount } from "../billing/money.ts";
import type { Payment } from "../billing/payments.ts";
import type { PayoutTotals, TransactionTotals } from "../billing/totals.ts";
import { ADJUSTMENT, AMOUNT_ACTIONS_SQL, COUNTED } from "../db/entities/adjustment.ts";
import { TRANSACTION } from "../db/entities/transaction.ts";
import {
  insertJson,
  type JsonPage,
  listJson,
  Params,
  query,
  queryExactlyOne,
  queryOne,
  type RawJson,
  sqlTransaction,
  storableJson,
  updateJson,
} from "../db/sql.ts";
import { ApiError, type FieldError, invalidField, invalidFields, isInvalidField } from "../errors.ts";
import { createStripeRefundJob } from "../events/jobs/create-stripe-refund.ts";
import { queueJob } from "../events/jobs/job.ts";
import { newId } from "../ids.ts";
import { attemptById, type PaymentAttempt } from "../payments/attempts.ts";
import type { Adjustment, CreateAdjustmentInput, ListAdjustmentsQuery } from "../schemas/adjustment.ts";
import type { TransactionDetails } from "../schemas/transaction.ts";
import { nextCreditNoteNumber } from "./invoice-numbers.ts";

export { ADJUSTMENT };

export function listAdjustments(q: ListAdjustmentsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.id) filters.push(params.oneOf("t.id", q.id));
  if (q.transaction_id) filters.push(params.oneOf("t.transaction_id", q.transaction_id));
  if (q.subscription_id) filters.push(params.oneOf("t.subscription_id", q.subscription_id));
  if (q.customer_id) filters.push(params.oneOf("t.customer_id", q.customer_id));
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  if (q.action) filters.push(`t.action = ${params.add(q.action)}`);
  return listJson(ADJUSTMENT, { filters, params, orderBy: q.order_by, after: q.after, perPage: q.per_page });
}

interface LockedTransaction {
  status: string;
  collection_mode: string;
  customer_id: string | null;
  subscription_id: string | null;
  currency_code: string;
  details: TransactionDetails;
  payments: Payment[];
}

/** What earlier adjustments of a transaction used up: per line (not rejected), and in all. */
interface Earlier {
  byLine: Map<string, Split[]>;
  /** Sum of the totals of adjustments not rejected (the base of the cumulative fee share). */
  total: bigint;
}

async function earlierAdjustments(client: pg.PoolClient, transactionId: string): Promise<Earlier> {
  const rows = await query<{ item_id: string; subtotal: string; tax: string; total: string }>(
    `SELECT i.item_id, i.subtotal::text, i.tax::text, i.total::text
       FROM adjustment_items i JOIN adjustments a ON a.id = i.adjustment_id
      WHERE a.transaction_id = $1 AND a.status NOT IN ('rejected', 'reversed') AND a.action IN (${AMOUNT_ACTIONS_SQL})`,
    [transactionId],
    client,
  );
  const byLine = new Map<string, Split[]>();
  let total = 0n;
  for (const row of rows) {
    const split = { subtotal: BigInt(row.subtotal), tax: BigInt(row.tax), total: BigInt(row.total) };
    byLine.set(row.item_id, [...(byLine.get(row.item_id) ?? []), split]);
    total += split.total;
  }
  return { byLine, total };
}

function chargedLines(details: TransactionDetails): ChargedLine[] {
  return details.line_items.map((line) => ({
    id: line.id,
    taxRate: line.tax_rate,
    total: parseAmount(line.totals.total),
    tax: parseAmount(line.totals.tax),
  }));
}

interface PlannedItem {
  itemId: string;
  type: string;
  rate: string;
  split: Split;
}

/** The items of the adjustment, each checked against what is left of its line. */
function planItems(
  input: CreateAdjustmentInput,
  transactionId: string,
  lines: ChargedLine[],
  earlier: Earlier,
): PlannedItem[] {
  const left = (line: ChargedLine) => leftOn(line, earlier.byLine.get(line.id) ?? []);
  if ((input.type ?? "partial") === "full") {
    const planned = lines
      .map((line) => ({ itemId: line.id, type: "full", rate: line.taxRate, split: left(line) }))
      .filter((item) => item.split.total > 0n);
    if (planned.length === 0) {
      throw invalidField(
        "transaction_id",
        `${transactionId} has already been fully adjusted: nothing is left to ${input.action}`,
      );
    }
    return planned;
  }
  const byId = new Map(lines.map((line) => [line.id, line]));
  const taxMode: AdjustmentTaxMode = input.tax_mode ?? "internal";
  const problems: FieldError[] = [];
  const planned: PlannedItem[] = [];
  (input.items ?? []).forEach((item, i) => {
    const line = byId.get(item.item_id);
    if (!line) {
      problems.push({
        field: `items[${i}].item_id`,
        message: `is not an item of transaction ${transactionId} (use the IDs of its details.line_items)`,
      });
      return;
    }
    try {
      const request = { type: item.type, amount: item.amount == null ? null : BigInt(item.amount) };
      const split = adjustItem(request, line, left(line), taxMode, `items[${i}]`);
      planned.push({ itemId: line.id, type: item.type, rate: line.taxRate, split });
    } catch (error) {
      if (!isInvalidField(error)) throw error;
      problems.push(...error.errors);
    }
  });
  if (problems.length) throw invalidFields(problems);
  return planned;
}

function stateProblem(input: CreateAdjustmentInput, id: string, txn: LockedTransaction): ApiError | null {
  if (input.action === "refund" && !canRefund(txn.status)) {
    return new ApiError(
      "adjustment_transaction_invalid_status_for_refund",
      `The transaction being adjusted (refund) has a non supported status. ID: ${id} is ${txn.status}, and only completed transactions can be refunded${
        canCredit(txn.status, txn.collection_mode) ? ": create a credit to lower what is owed on this invoice" : ""
      }.`,
    );
  }
  if (input.action === "credit" && !canCredit(txn.status, txn.collection_mode)) {
    return new ApiError(
      "adjustment_transaction_invalid_status_for_credit",
      `The transaction being adjusted (credit) has a non supported status. ID: ${id} is ${txn.status} (${txn.collection_mode} collection), and only manually-collected transactions that are billed or past due can be credited${
        canRefund(txn.status) ? ": refund a completed transaction instead" : ""
      }.`,
    );
  }
  return null;
}

/** The transaction's row, locked (FOR UPDATE) for an adjustment; null when there is none. */
async function lockTransaction(client: pg.PoolClient, id: string): Promise<LockedTransaction | null> {
  const [txn] = await query<LockedTransaction>(
    `SELECT status, collection_mode, customer_id, subscription_id, currency_code, details, payments
       FROM transactions WHERE id = $1 FOR UPDATE`,
    [id],
    client,
  );
  return txn ?? null;
}

/**
 * The Stripe payment a transaction was paid with: the attempt behind its captured payment
 * (`payment_attempt_id` → payment_attempts, processor `stripe`, with its pi_), or null when it was
 * paid otherwise (the sandbox's test cards, marked paid offline).
 */
export async function stripePaymentOf(
  client: pg.PoolClient,
  payments: readonly Payment[],
): Promise<PaymentAttempt | null> {
  const captured = payments.find((payment) => payment.status === "captured");
  if (!captured) return null;
  const attempt = await attemptById(captured.payment_attempt_id, client);
  return attempt && attempt.processor === "stripe" && attempt.processor_payment ? attempt : null;
}

interface NewAdjustment {
  id: string;
  action: AdjustmentAction;
  type: "full" | "partial";
  transactionId: string;
  txn: LockedTransaction;
  reason: string;
  status: "pending_approval" | "approved";
  creditNoteNumber: string | null;
  amounts: AdjustmentAmounts;
  planned: readonly PlannedItem[];
  processorReference?: string | null;
}

/** Inserts an adjustment with its items and its `adjustment.created` event; returns it as written. */
async function insertAdjustment(client: pg.PoolClient, a: NewAdjustment): Promise<RawJson<Adjustment>> {
  await insertJson(
    ADJUSTMENT,
    {
      id: a.id,
      action: a.action,
      type: a.type,
      transaction_id: a.transactionId,
      subscription_id: a.txn.subscription_id,
      customer_id: a.txn.customer_id,
      reason: a.reason,
      credit_applied_to_balance: false,
      currency_code: a.txn.currency_code,
      status: a.status,
      credit_note_number: a.creditNoteNumber,
      subtotal: a.amounts.subtotal,
      tax: a.amounts.tax,
      total: a.amounts.total,
      fee: a.amounts.fee,
      retained_fee: a.amounts.retainedFee,
      earnings: a.amounts.earnings,
      chargeback_fee: a.amounts.chargebackFee ?? 0n,
      has_payout: a.txn.details.payout_totals !== null,
      processor_reference: a.processorReference ?? null,
      tax_rates_used: storableJson(taxRatesUsed(a.planned)),
    },
    null,
    client,
  );
  await query(
    `INSERT INTO adjustment_items (id, adjustment_id, position, item_id, type, amount, subtotal, tax, total)
     SELECT x.id, $1, x.position, x.item_id, x.type, x.total, x.subtotal, x.tax, x.total
       FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[])
         AS x(id, position, item_id, type, subtotal, tax, total)`,
    [
      a.id,
      a.planned.map(() => newId("adjitm")),
      a.planned.map((_, i) => i),
      a.planned.map((item) => item.itemId),
      a.planned.map((item) => item.type),
      a.planned.map((item) => item.split.subtotal.toString()),
      a.planned.map((item) => item.split.tax.toString()),
      a.planned.map((item) => item.split.total.toString()),
    ],
    client,
  );
  // The event of the row with its items (inserted after it: they reference it).
  return (await updateJson(
    ADJUSTMENT,
    { sql: "t.id = $1", values: [a.id] },
    {},
    "adjustment.created",
    client,
  )) as RawJson<Adjustment>;
}

/**
 * POST /adjustments. A refund of a transaction paid through Stripe (issue 21 §5) is answered
 * `pending_approval` and stays so until Stripe confirms the refund: the `create_stripe_refund` job,
 * queued in this database transaction (so a crash never loses it), asks Stripe for it once this
 * commits (lib/services/payments/refunds.ts), and its answer or Stripe's webhook approves or rejects
 * it (settleRefundAdjustment). Its fee share stays with Stripe (`retained_fee`, see
 * lib/billing/adjustments.ts). Every other refund, and every credit, is approved here as before.
 */
export async function createAdjustment(input: CreateAdjustmentInput): Promise<RawJson<Adjustment>> {
  return sqlTransaction(async (client) => {
    const txn = await lockTransaction(client, input.transaction_id);
    // The API family answers an unknown transaction as a problem of the field that names it.
    if (!txn) throw invalidField("transaction_id", `no transaction has the ID ${input.transaction_id}`);
    const refused = stateProblem(input, input.transaction_id, txn);
    if (refused) throw refused;
    // Billed and completed transactions have a customer; one written without (by hand) is not adjusted.
    if (!txn.customer_id) {
      throw invalidField("transaction_id", `${input.transaction_id} has no customer to refund or credit`);
    }

    const earlier = await earlierAdjustments(client, input.transaction_id);
    const planned = planItems(input, input.transaction_id, chargedLines(txn.details), earlier);
    const refund = input.action === "refund";
    const stripePayment = refund ? await stripePaymentOf(client, txn.payments) : null;
    const totals = txn.details.totals;
    const amounts = adjustmentAmounts(
      planned.map((item) => item.split),
      {
        total: parseAmount(totals.total),
        fee: totals.fee === null ? null : parseAmount(totals.fee),
        adjustedBefore: earlier.total,
        processorKeepsFee: stripePayment !== null,
      },
    );

    const id = newId("adj");
    const base = {
      id,
      action: input.action,
      type: input.type ?? "partial",
      transactionId: input.transaction_id,
      txn,
      reason: input.reason,
      amounts,
      planned,
    } as const;
    if (stripePayment) {
      const created = await insertAdjustment(client, { ...base, status: "pending_approval", creditNoteNumber: null });
      await queueJob(client, createStripeRefundJob, { adjustment_id: id });
      return created;
    }
    // The credit note's number is taken on approval, after every check (see invoice-numbers.ts):
    // both actions are approved in this database transaction, so a refused request uses none.
    const creditNoteNumber = await nextCreditNoteNumber(client);
    let written = await insertAdjustment(client, {
      ...base,
      status: refund ? "pending_approval" : "approved",
      creditNoteNumber: refund ? null : creditNoteNumber,
    });
    if (refund)
      written = (await updateJson(
        ADJUSTMENT,
        { sql: "t.id = $1", values: [id] },
        { status: "approved", credit_note_number: creditNoteNumber },
        "adjustment.updated",
        client,
      )) as RawJson<Adjustment>;
    await refreshAdjustedTotals(client, input.transaction_id);
    return written;
  });
}

// ---------------------------------------------------------------------------------------------
// Adjustments a processor decides: refunds it confirms or fails, chargebacks and their reversals

/** A processor's refund as the adjustment needs it (lib/payments/processor.ts ProcessorRefund). */
export interface RefundOutcome {
  /** The processor's refund ID (re_), kept on the adjustment; null when none was made. */
  reference: string | null;
  status: "pending" | "succeeded" | "failed" | "canceled";
  failureReason: string | null;
}

/**
 * Settles a refund adjustment that waits for its processor (`pending_approval`), exactly once: in
 * one database transaction, the transaction's row locked, then the adjustment's. Succeeded →
 * `approved` with its credit-note number and the adjusted totals; failed or canceled → `rejected`
 * (what it reserved is free again); pending → the processor's reference noted, nothing else. An
 * adjustment already approved or rejected changes nothing (a redelivered or late webhook).
 * Returns the adjustment's status afterwards, or null when `adjustmentId` is unknown.
 */
export async function settleRefundAdjustment(adjustmentId: string, outcome: RefundOutcome): Promise<string | null> {
  return sqlTransaction(async (client) => {
    const [known] = await query<{ transaction_id: string }>(
      "SELECT transaction_id FROM adjustments WHERE id = $1 AND action = 'refund'",
      [adjustmentId],
      client,
    );
    if (!known) return null;
    await lockTransaction(client, known.transaction_id);
    const adjustment = await queryExactlyOne<{ status: string; processor_reference: string | null }>(
      "SELECT status, processor_reference FROM adjustments WHERE id = $1 FOR UPDATE",
      [adjustmentId],
      client,
    );
    if (outcome.reference && adjustment.processor_reference === null) {
      await query(
        "UPDATE adjustments SET processor_reference = $2 WHERE id = $1",
        [adjustmentId, outcome.reference],
        client,
      );
    }
    if (adjustment.status !== "pending_approval" || outcome.status === "pending") return adjustment.status;
    const where = { sql: "t.id = $1", values: [adjustmentId] };
    if (outcome.status === "succeeded") {
      const creditNoteNumber = await nextCreditNoteNumber(client);
      await updateJson(
        ADJUSTMENT,
        where,
        { status: "approved", credit_note_number: creditNoteNumber },
        "adjustment.updated",
        client,
      );
      await refreshAdjustedTotals(client, known.transaction_id);
      return "approved";
    }
    await updateJson(ADJUSTMENT, where, { status: "rejected" }, "adjustment.updated", client);
    return "rejected";
  });
}

/** The refund adjustment a processor's refund belongs to: by its reference, else by the adjustment ID it carries. */
export async function refundAdjustmentFor(reference: string, adjustmentId: string | null): Promise<string | null> {
  const [row] = await query<{ id: string }>(
    `SELECT id FROM adjustments WHERE action = 'refund' AND (processor_reference = $1 OR (processor_reference IS NULL AND id = $2))
      ORDER BY processor_reference IS NULL LIMIT 1`,
    [reference, adjustmentId ?? ""],
  );
  return row?.id ?? null;
}

/**
 * The items of a chargeback of `amount` (tax included): what is left of each line, in proportion,
 * the rounding on the last line with room; everything left when `amount` covers it. Never more
 * than what is left: a dispute of more than that (after refunds Stripe did not net out) is counted
 * at what is left.
 */
function planChargeback(amount: bigint, lines: readonly ChargedLine[], earlier: Earlier): PlannedItem[] {
  const lefts = lines.map((line) => ({ line, left: leftOn(line, earlier.byLine.get(line.id) ?? []) }));
  const open = lefts.filter(({ left }) => left.total > 0n);
  const leftTotal = open.reduce((sum, { left }) => sum + left.total, 0n);
  if (leftTotal === 0n || amount <= 0n) return [];
  if (amount >= leftTotal) {
    return open.map(({ line, left }) => ({ itemId: line.id, type: "full", rate: line.taxRate, split: left }));
  }
  const shares = open.map(({ line, left }) => ({ line, left, share: (amount * left.total) / leftTotal }));
  let rest = amount - shares.reduce((sum, { share }) => sum + share, 0n);
  for (const entry of shares.toReversed()) {
    if (rest <= 0n) break;
    const take = minOf(entry.left.total - entry.share, rest);
    entry.share += take;
    rest -= take;
  }
  return shares.flatMap(({ line, left, share }, i) =>
    share > 0n
      ? [
          {
            itemId: line.id,
            type: share === left.total ? "full" : "partial",
            rate: line.taxRate,
            split: adjustItem({ type: "partial", amount: share }, line, left, "internal", `items[${i}]`),
          },
        ]
      : [],
  );
}

/**
 * Records a processor's dispute of a transaction's payment as a `chargeback` adjustment (issue 21
 * §5), approved at once (the money is already gone), for the disputed amount, once per dispute
 * (`reference`: Stripe's dp_; a second call finds it). The processor keeps its fee (retained_fee).
 * Returns the chargeback's ID, or null when the transaction has nothing left to charge back.
 */
export async function recordChargeback(input: {
  transactionId: string;
  reference: string;
  amount: bigint;
  /** The processor's dispute fee, minor units of the payout currency. */
  chargebackFee?: bigint;
  reason: string;
}): Promise<string | null> {
  return sqlTransaction(async (client) => {
    const txn = await lockTransaction(client, input.transactionId);
    if (!txn?.customer_id) return null;
    const [existing] = await query<{ id: string }>(
      "SELECT id FROM adjustments WHERE processor_reference = $1",
      [input.reference],
      client,
    );
    if (existing) return existing.id;
    const earlier = await earlierAdjustments(client, input.transactionId);
    const lines = chargedLines(txn.details);
    const planned = planChargeback(input.amount, lines, earlier);
    if (planned.length === 0) return null;
    const totals = txn.details.totals;
    const amounts = adjustmentAmounts(
      planned.map((item) => item.split),
      {
        total: parseAmount(totals.total),
        fee: totals.fee === null ? null : parseAmount(totals.fee),
        adjustedBefore: earlier.total,
        processorKeepsFee: true,
      },
    );
    amounts.chargebackFee = input.chargebackFee ?? 0n;
    const full =
      planned.every((item) => item.type === "full") && planned.length === lines.filter((l) => l.total > 0n).length;
    const id = newId("adj");
    await insertAdjustment(client, {
      id,
      action: "chargeback",
      type: full ? "full" : "partial",
      transactionId: input.transactionId,
      txn,
      reason: input.reason,
      status: "approved",
      creditNoteNumber: null,
      amounts,
      planned,
      processorReference: input.reference,
    });
    await refreshAdjustedTotals(client, input.transactionId);
    return id;
  });
}

/**
 * A dispute won: its chargeback becomes `reversed` (adjustment.updated) and a `chargeback_reverse`
 * adjustment of the same amounts is created approved (adjustment.created), as the API family does.
 * Neither counts in the adjusted totals afterwards (AMOUNT_ACTIONS), so they are back to what they
 * were before the dispute. Once: a chargeback already reversed changes nothing. Returns the
 * reversal's ID, or null when there was nothing to reverse.
 */
export async function reverseChargeback(reference: string, reason: string): Promise<string | null> {
  return sqlTransaction(async (client) => {
    const [known] = await query<{ transaction_id: string }>(
      "SELECT transaction_id FROM adjustments WHERE processor_reference = $1 AND action = 'chargeback'",
      [reference],
      client,
    );
    if (!known) return null;
    const txn = (await lockTransaction(client, known.transaction_id)) as LockedTransaction;
    const chargeback = await queryOne<{
      id: string;
      type: "full" | "partial";
      status: string;
      subtotal: string;
      tax: string;
      total: string;
      fee: string;
      retained_fee: string;
      earnings: string;
    }>(
      `SELECT id, type, status, subtotal::text, tax::text, total::text, fee::text, retained_fee::text, earnings::text
         FROM adjustments WHERE processor_reference = $1 FOR UPDATE`,
      [reference],
      client,
    );
    if (chargeback?.status !== "approved") return null;
    const items = await query<{ item_id: string; type: string; subtotal: string; tax: string; total: string }>(
      `SELECT item_id, type, subtotal::text, tax::text, total::text FROM adjustment_items
        WHERE adjustment_id = $1 ORDER BY position`,
      [chargeback.id],
      client,
    );
    const rates = new Map(txn.details.line_items.map((line) => [line.id, line.tax_rate]));
    await updateJson(
      ADJUSTMENT,
      { sql: "t.id = $1", values: [chargeback.id] },
      { status: "reversed" },
      "adjustment.updated",
      client,
    );
    const id = newId("adj");
    await insertAdjustment(client, {
      id,
      action: "chargeback_reverse",
      type: chargeback.type,
      transactionId: known.transaction_id,
      txn,
      reason,
      status: "approved",
      creditNoteNumber: null,
      amounts: {
        subtotal: BigInt(chargeback.subtotal),
        tax: BigInt(chargeback.tax),
        total: BigInt(chargeback.total),
        fee: BigInt(chargeback.fee),
        retainedFee: BigInt(chargeback.retained_fee),
        earnings: BigInt(chargeback.earnings),
      },
      planned: items.map((item) => ({
        itemId: item.item_id,
        type: item.type,
        rate: rates.get(item.item_id) ?? "0",
        split: { subtotal: BigInt(item.subtotal), tax: BigInt(item.tax), total: BigInt(item.total) },
      })),
    });
    await refreshAdjustedTotals(client, known.transaction_id);
    return id;
  });
}

const NO_ADJUSTMENT: AdjustmentAmounts = { subtotal: 0n, tax: 0n, total: 0n, fee: 0n, retainedFee: 0n, earnings: 0n };

/**
 * The sums of the approved adjustments of each of `transactionIds`, in one query: null for one
 * without any (its adjusted totals equal its totals, and it has no adjusted payout totals yet).
 */
async function approvedAmounts(
  client: pg.PoolClient,
  transactionIds: readonly string[],
): Promise<Map<string, AdjustmentAmounts | null>> {
  const rows = await query<{
    transaction_id: string;
    subtotal: string;
    tax: string;
    total: string;
    fee: string;
    retained_fee: string;
    earnings: string;
    chargeback_fee: string;
  }>(
    `SELECT transaction_id, coalesce(sum(subtotal), 0)::text AS subtotal, coalesce(sum(tax), 0)::text AS tax,
            coalesce(sum(total), 0)::text AS total, coalesce(sum(fee), 0)::text AS fee,
            coalesce(sum(retained_fee), 0)::text AS retained_fee, coalesce(sum(earnings), 0)::text AS earnings,
            coalesce(sum(chargeback_fee), 0)::text AS chargeback_fee
       FROM adjustments a WHERE transaction_id = ANY($1) AND ${COUNTED("a")}
      GROUP BY transaction_id`,
    [transactionIds],
    client,
  );
  const sums = new Map(
    rows.map((row) => [
      row.transaction_id,
      {
        subtotal: BigInt(row.subtotal),
        tax: BigInt(row.tax),
        total: BigInt(row.total),
        fee: BigInt(row.fee),
        retainedFee: BigInt(row.retained_fee),
        earnings: BigInt(row.earnings),
        chargebackFee: BigInt(row.chargeback_fee),
      },
    ]),
  );
  return new Map(transactionIds.map((id) => [id, sums.get(id) ?? null]));
}

/**
 * `details` with `adjusted_totals` and `adjusted_payout_totals` computed from the transaction's
 * approved adjustments (the one place they are computed: adjustments and payments both use it).
 */
export async function withAdjustedTotals(
  client: pg.PoolClient,
  transactionId: string,
  details: TransactionDetails,
): Promise<TransactionDetails> {
  const approved = await approvedAmounts(client, [transactionId]);
  return withAdjustments(details, approved.get(transactionId) ?? null);
}

/** withAdjustedTotals of many transactions (a batch of payments), reading their adjustments in one query. */
export async function withAdjustedTotalsOf(
  client: pg.PoolClient,
  transactions: readonly { transactionId: string; details: TransactionDetails }[],
): Promise<TransactionDetails[]> {
  const approved = await approvedAmounts(
    client,
    transactions.map((t) => t.transactionId),
  );
  return transactions.map(({ transactionId, details }) =>
    withAdjustments(details, approved.get(transactionId) ?? null),
  );
}

/** `details` with the adjusted totals of `amounts`, its approved adjustments' sums (null: none). */
function withAdjustments(details: TransactionDetails, amounts: AdjustmentAmounts | null): TransactionDetails {
  return {
    ...details,
    adjusted_totals: adjustedTotals(details.totals as TransactionTotals, amounts ?? NO_ADJUSTMENT),
    adjusted_payout_totals: adjustedPayoutTotals(details.payout_totals as PayoutTotals | null, amounts),
  };
}

/**
 * Rewrites the transaction's `details.adjusted_totals` and `details.adjusted_payout_totals` from
 * its stored totals and its approved adjustments, with a `transaction.updated` event. Call it in
 * the database transaction of any change to either (the caller holds the transaction's row lock).
 */
export async function refreshAdjustedTotals(client: pg.PoolClient, transactionId: string): Promise<void> {
  const [row] = await query<{ details: TransactionDetails }>(
    "SELECT details FROM transactions WHERE id = $1",
    [transactionId],
    client,
  );
  if (!row) return;
  const details = await withAdjustedTotals(client, transactionId, row.details);
  await updateJson(
    TRANSACTION,
    { sql: "t.id = $1", values: [transactionId] },
    { details: storableJson(details) },
    "transaction.updated",
    client,
  );
}
