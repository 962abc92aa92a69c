/**
 * A transaction's adjusted totals: `details.adjusted_totals` and `adjusted_payout_totals` from the
 * sums of its approved adjustments, stored on the transaction and rewritten in each adjustment's
 * database transaction (refreshAdjustedTotals), so reads and webhooks carry them at no cost.
 */
import type pg from "pg";
import { type AdjustmentAmounts, adjustedPayoutTotals, adjustedTotals } from "../../billing/adjustments.ts";
import type { PayoutTotals, TransactionTotals } from "../../billing/totals.ts";
import { COUNTED } from "../../db/entities/adjustment.ts";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import { query, storableJson, updateJson } from "../../db/sql.ts";
import type { TransactionDetails } from "../../schemas/transaction.ts";

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
