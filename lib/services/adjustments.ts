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
 * approval. Here the service is its own processor, so there is nobody to wait for: a refund is
 * created `pending_approval` and approved in the same database transaction, which writes both
 * events the family sends (`adjustment.created` with status `pending_approval`, then
 * `adjustment.updated` with `approved`), so an integration that waits for the approval works
 * unchanged and never sees a refund stuck in review. A credit is created `approved`
 * (`adjustment.created` only). Pending (not rejected) adjustments already use up what is left.
 * An approved refund or credit gets its credit-note number (CN-000001, gapless) at approval.
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
import { parseAmount } from "../billing/money.ts";
import type { PayoutTotals, TransactionTotals } from "../billing/totals.ts";
import { ADJUSTMENT, COUNTED_STATUS } from "../db/entities/adjustment.ts";
import { TRANSACTION } from "../db/entities/transaction.ts";
import {
  insertJson,
  type JsonPage,
  listJson,
  Params,
  query,
  type RawJson,
  sqlTransaction,
  storableJson,
  updateJson,
} from "../db/sql.ts";
import { ApiError, type FieldError, invalidField, invalidFields, isInvalidField } from "../errors.ts";
import { newId } from "../ids.ts";
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
      WHERE a.transaction_id = $1 AND a.status <> 'rejected'`,
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

export async function createAdjustment(input: CreateAdjustmentInput): Promise<RawJson<Adjustment>> {
  return sqlTransaction(async (client) => {
    const [txn] = await query<LockedTransaction>(
      `SELECT status, collection_mode, customer_id, subscription_id, currency_code, details
         FROM transactions WHERE id = $1 FOR UPDATE`,
      [input.transaction_id],
      client,
    );
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
    const totals = txn.details.totals;
    const amounts = adjustmentAmounts(
      planned.map((item) => item.split),
      {
        total: parseAmount(totals.total),
        fee: totals.fee === null ? null : parseAmount(totals.fee),
        adjustedBefore: earlier.total,
      },
    );

    const id = newId("adj");
    const refund = input.action === "refund";
    // The credit note's number is taken on approval, after every check (see invoice-numbers.ts):
    // both actions are approved in this database transaction, so a refused request uses none.
    const creditNoteNumber = await nextCreditNoteNumber(client);
    await insertJson(
      ADJUSTMENT,
      {
        id,
        action: input.action,
        type: input.type ?? "partial",
        transaction_id: input.transaction_id,
        subscription_id: txn.subscription_id,
        customer_id: txn.customer_id,
        reason: input.reason,
        credit_applied_to_balance: false,
        currency_code: txn.currency_code,
        status: refund ? "pending_approval" : "approved",
        credit_note_number: refund ? null : creditNoteNumber,
        subtotal: amounts.subtotal,
        tax: amounts.tax,
        total: amounts.total,
        fee: amounts.fee,
        retained_fee: amounts.retainedFee,
        earnings: amounts.earnings,
        has_payout: txn.details.payout_totals !== null,
        tax_rates_used: storableJson(taxRatesUsed(planned)),
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
        id,
        planned.map(() => newId("adjitm")),
        planned.map((_, i) => i),
        planned.map((item) => item.itemId),
        planned.map((item) => item.type),
        planned.map((item) => item.split.subtotal.toString()),
        planned.map((item) => item.split.tax.toString()),
        planned.map((item) => item.split.total.toString()),
      ],
      client,
    );
    // The event of the row with its items (inserted after it: they reference it).
    const where = { sql: "t.id = $1", values: [id] };
    let written = await updateJson(ADJUSTMENT, where, {}, "adjustment.created", client);
    if (refund)
      written = await updateJson(
        ADJUSTMENT,
        where,
        { status: "approved", credit_note_number: creditNoteNumber },
        "adjustment.updated",
        client,
      );
    await refreshAdjustedTotals(client, input.transaction_id);
    return written as RawJson<Adjustment>;
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
  const rows = await query<Record<string, string>>(
    `SELECT transaction_id, coalesce(sum(subtotal), 0)::text AS subtotal, coalesce(sum(tax), 0)::text AS tax,
            coalesce(sum(total), 0)::text AS total, coalesce(sum(fee), 0)::text AS fee,
            coalesce(sum(retained_fee), 0)::text AS retained_fee, coalesce(sum(earnings), 0)::text AS earnings
       FROM adjustments WHERE transaction_id = ANY($1) AND status = '${COUNTED_STATUS}'
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
  const [adjusted] = await withAdjustedTotalsOf(client, [{ transactionId, details }]);
  return adjusted;
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
  return transactions.map(({ transactionId, details }) => {
    const amounts = approved.get(transactionId) ?? null;
    return {
      ...details,
      adjusted_totals: adjustedTotals(details.totals as TransactionTotals, amounts ?? NO_ADJUSTMENT),
      adjusted_payout_totals: adjustedPayoutTotals(details.payout_totals as PayoutTotals | null, amounts),
    };
  });
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
