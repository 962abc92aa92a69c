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
  type AdjustmentTaxMode,
  adjustItem,
  adjustmentAmounts,
  type ChargedLine,
  canCredit,
  canRefund,
  leftOn,
} from "../../billing/adjustments.ts";
import { parseAmount } from "../../billing/money.ts";
import type { Payment } from "../../billing/payments.ts";
import { ADJUSTMENT } from "../../db/entities/adjustment.ts";
import { type RawJson, sqlTransaction, updateJson } from "../../db/sql.ts";
import { ApiError, type FieldError, invalidField, invalidFields, isInvalidField } from "../../errors.ts";
import { createStripeRefundJob } from "../../events/jobs/create-stripe-refund.ts";
import { queueJob } from "../../events/jobs/job.ts";
import { newId } from "../../ids.ts";
import { attemptById, type PaymentAttempt } from "../../payments/attempts.ts";
import type { Adjustment, CreateAdjustmentInput } from "../../schemas/adjustment.ts";
import { nextCreditNoteNumber } from "../invoice-numbers.ts";
import { refreshAdjustedTotals } from "./adjusted-totals.ts";
import {
  chargedLines,
  type Earlier,
  earlierAdjustments,
  insertAdjustment,
  type LockedTransaction,
  lockTransaction,
  type PlannedItem,
} from "./records.ts";

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
