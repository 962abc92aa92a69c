/**
 * The status moves of transactions that payments and the subscription engine make, one verb each:
 * the status (lib/billing/transitions.ts TRANSACTION_MOVES says from what, and to what), its
 * companion columns and its events, written in one statement (the transactional outbox). A row in
 * a status the move does not start from is left as it is, without events. Set-based where a batch
 * moves many rows. A PATCH's moves (billed, canceled) are written with the rest of the PATCH
 * (update.ts).
 */
import type pg from "pg";
import type { Payment } from "../../billing/payments.ts";
import type { TransactionStatus } from "../../billing/transaction-states.ts";
import { TRANSACTION_MOVES, type TransactionMove } from "../../billing/transitions.ts";
import { TRANSACTION } from "../../db/entities/transaction.ts";
import { type Columns, type RawJson, storableJson, updateJson, updateRows } from "../../db/sql.ts";
import { movedFrom } from "../../db/status-moves.ts";
import type { Transaction } from "../../schemas/transaction.ts";

/** Where `move` takes a transaction: each transaction move has one destination. */
function target(move: TransactionMove): TransactionStatus {
  return TRANSACTION_MOVES[move][0][1];
}

/** updateJson of one transaction moving by `move`: null when it is not in a status `move` starts from. */
function moveOne(
  client: pg.PoolClient,
  move: TransactionMove,
  id: string,
  columns: Columns,
  events: readonly string[],
): Promise<RawJson<Transaction> | null> {
  return updateJson(
    TRANSACTION,
    { sql: `t.id = $1 AND ${movedFrom(TRANSACTION_MOVES[move])}`, values: [id] },
    { ...columns, status: target(move) },
    events,
    client,
  );
}

/** updateRows of transactions moving by `move`, each with its own columns: the IDs moved. */
function moveMany(
  client: pg.PoolClient,
  move: TransactionMove,
  rows: readonly ({ id: string } & Columns)[],
  events: readonly string[],
): Promise<string[]> {
  return updateRows(
    TRANSACTION,
    rows.map((row) => ({ ...row, status: target(move) })),
    events,
    client,
    movedFrom(TRANSACTION_MOVES[move]),
  );
}

const PAST_DUE_EVENTS = ["transaction.updated", "transaction.past_due"] as const;

/** billed → past_due: the invoices' due dates passed unpaid. Returns the IDs moved. */
export function markTransactionsPastDue(client: pg.PoolClient, ids: readonly string[]): Promise<string[]> {
  return moveMany(
    client,
    "past_due",
    ids.map((id) => ({ id })),
    PAST_DUE_EVENTS,
  );
}

/** → canceled, by the engine (not a PATCH): a past_due renewal of a subscription that pauses, a declined change undone. */
export function cancelTransactions(client: pg.PoolClient, ids: readonly string[]): Promise<string[]> {
  return moveMany(
    client,
    "cancel",
    ids.map((id) => ({ id })),
    ["transaction.updated", "transaction.canceled"],
  );
}

/**
 * A declined charge of a saved card: the failed payment (`payments`, newest first), and with
 * `pastDue` (a renewal's charge) the move to past_due, in one statement.
 */
export async function recordFailedPayment(
  client: pg.PoolClient,
  stored: { id: string; status: string },
  payments: readonly Payment[],
  pastDue: boolean,
): Promise<void> {
  const columns = { payments: storableJson(payments) };
  const moves = pastDue && TRANSACTION_MOVES.decline.some(([from]) => from === stored.status);
  if (moves) {
    await moveOne(client, "decline", stored.id, columns, [
      "transaction.updated",
      "transaction.payment_failed",
      "transaction.past_due",
    ]);
  } else {
    await updateJson(
      TRANSACTION,
      { sql: "t.id = $1", values: [stored.id] },
      columns,
      ["transaction.updated", "transaction.payment_failed"],
      client,
    );
  }
}

/** → paid: the payment of a transaction that buys its subscription, before the subscription is created. */
export function markTransactionPaid(
  client: pg.PoolClient,
  id: string,
  columns: Columns,
): Promise<RawJson<Transaction> | null> {
  return moveOne(client, "pay", id, columns, ["transaction.updated", "transaction.paid"]);
}

/** → completed, once paid (`markTransactionPaid`) or owing nothing; null when not in a status to complete from. */
export function completeTransaction(
  client: pg.PoolClient,
  id: string,
  columns: Columns,
): Promise<RawJson<Transaction> | null> {
  return moveOne(client, "complete", id, columns, ["transaction.updated", "transaction.completed"]);
}

/** → completed with a captured payment (`paid` passed through at once), many in one statement: the IDs completed. */
export function completeTransactions(
  client: pg.PoolClient,
  rows: readonly ({ id: string } & Columns)[],
): Promise<string[]> {
  return moveMany(client, "complete", rows, ["transaction.updated", "transaction.paid", "transaction.completed"]);
}
