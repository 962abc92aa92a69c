/**
 * What the adjustment operations share: the transaction locked for an adjustment, what earlier
 * adjustments used up, the lines that were charged, and the insert of an adjustment with its
 * items and events.
 */
import type pg from "pg";
import {
  type AdjustmentAction,
  type AdjustmentAmounts,
  type ChargedLine,
  type Split,
  taxRatesUsed,
} from "../../billing/adjustments.ts";
import { parseAmount } from "../../billing/money.ts";
import type { Payment } from "../../billing/payments.ts";
import { ADJUSTMENT, AMOUNT_ACTIONS_SQL } from "../../db/entities/adjustment.ts";
import { insertJson, query, type RawJson, storableJson, updateJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import type { Adjustment } from "../../schemas/adjustment.ts";
import type { TransactionDetails } from "../../schemas/transaction.ts";

export interface LockedTransaction {
  status: string;
  collection_mode: string;
  customer_id: string | null;
  subscription_id: string | null;
  currency_code: string;
  details: TransactionDetails;
  payments: Payment[];
}

/** What earlier adjustments of a transaction used up: per line (not rejected), and in all. */
export interface Earlier {
  byLine: Map<string, Split[]>;
  /** Sum of the totals of adjustments not rejected (the base of the cumulative fee share). */
  total: bigint;
}

export async function earlierAdjustments(client: pg.PoolClient, transactionId: string): Promise<Earlier> {
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

export function chargedLines(details: TransactionDetails): ChargedLine[] {
  return details.line_items.map((line) => ({
    id: line.id,
    taxRate: line.tax_rate,
    total: parseAmount(line.totals.total),
    tax: parseAmount(line.totals.tax),
  }));
}

export interface PlannedItem {
  itemId: string;
  type: string;
  rate: string;
  split: Split;
}

/** The transaction's row, locked (FOR UPDATE) for an adjustment; null when there is none. */
export async function lockTransaction(client: pg.PoolClient, id: string): Promise<LockedTransaction | null> {
  const [txn] = await query<LockedTransaction>(
    `SELECT status, collection_mode, customer_id, subscription_id, currency_code, details, payments
       FROM transactions WHERE id = $1 FOR UPDATE`,
    [id],
    client,
  );
  return txn ?? null;
}

export interface NewAdjustment {
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
export async function insertAdjustment(client: pg.PoolClient, a: NewAdjustment): Promise<RawJson<Adjustment>> {
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
