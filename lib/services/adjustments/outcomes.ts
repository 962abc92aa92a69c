import { adjustItem, adjustmentAmounts, type ChargedLine, leftOn } from "../../billing/adjustments.ts";
import { minOf, parseAmount } from "../../billing/money.ts";
import { ADJUSTMENT } from "../../db/entities/adjustment.ts";
import { query, queryExactlyOne, queryOne, sqlTransaction, updateJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
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
