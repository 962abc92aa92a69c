/** GET /transactions/{transaction_id}, and the read-back of a write with what `include` asks for. */
import type pg from "pg";
import { transactionEntity } from "../../db/entities/transaction.ts";
import { getJson, type RawJson } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import type { Transaction, TransactionInclude } from "../../schemas/transaction.ts";

export async function getTransaction(
  id: string,
  include?: readonly TransactionInclude[],
): Promise<RawJson<Transaction>> {
  const transaction = await getJson(transactionEntity(include), "t.id = $1", [id]);
  if (!transaction) throw notFound(id);
  return transaction;
}

/** The result of a write, with the included entities when `include` asks for any. */
export async function withIncludes(
  written: RawJson<Transaction>,
  id: string,
  include: readonly TransactionInclude[] | undefined,
  client: pg.PoolClient,
): Promise<RawJson<Transaction>> {
  if (!include?.length) return written;
  return (await getJson(transactionEntity(include), "t.id = $1", [id], client)) ?? written;
}
