/**
 * Invoice numbers and credit-note numbers: gapless and unique per merchant, even under concurrent
 * billing. Each is its own sequence (INV-000001, INV-000002 … and CN-000001 …), in its own table.
 *
 * One counter row per merchant (a deployment is one merchant: the row `default`, inserted by the
 * migration). Taking numbers moves the counter with UPDATE … RETURNING, which locks that row in the
 * caller's database transaction, so:
 * - unique: a second biller waits on the lock until the first commits, then reads its number;
 * - gapless: a biller that rolls back (a refused request, a crash) rolls its increment back too.
 * The lock is held until the billing commits, so callers take it last, after every other check.
 * Lock order is always transaction row → discount row → credit balance → counter row → revenue
 * rollup (the completion's trigger), so billers never deadlock; a batch of renewals takes each kind
 * for all its subscriptions before the next kind (lib/services/subscriptions/billing.ts).
 */
import type pg from "pg";
import { config } from "../config.ts";
import { query, queryExactlyOne, queryOne } from "../db/sql.ts";

/** The one merchant of a deployment. */
export const DEFAULT_MERCHANT = "default";

/** Digits the number is zero-padded to (it grows past them when needed: INV-1000000). */
export const INVOICE_NUMBER_DIGITS = 6;

/** `INV-000042`: the configured prefix and the number, zero-padded. */
export function formatInvoiceNumber(number: bigint, prefix: string = config.invoices.prefix): string {
  return `${prefix}${number.toString().padStart(INVOICE_NUMBER_DIGITS, "0")}`;
}

/** The two numbered documents, each with its counter table and prefix. */
const SEQUENCES = {
  invoice: { table: "invoice_number_counters", prefix: () => config.invoices.prefix },
  credit_note: { table: "credit_note_number_counters", prefix: () => config.creditNotes.prefix },
} as const;

/**
 * Takes the next `count` (at least 1) numbers of `sequence` for `merchant` and returns the first:
 * one UPDATE … RETURNING moves the counter by `count` and locks its row until the caller's
 * database transaction ends (a batch of renewals takes its block of numbers in one statement).
 */
async function reserveNumbers(
  client: pg.PoolClient,
  sequence: keyof typeof SEQUENCES,
  merchant: string,
  count: number,
): Promise<bigint> {
  const { table } = SEQUENCES[sequence];
  const update = `UPDATE ${table} SET last_number = last_number + $2 WHERE merchant_id = $1 RETURNING last_number::text AS last`;
  let row = await queryOne<{ last: string }>(update, [merchant, count], client);
  if (!row) {
    // The migration creates the default merchant's row; another merchant's starts on first use.
    await query(
      `INSERT INTO ${table} (merchant_id, last_number) VALUES ($1, 0) ON CONFLICT DO NOTHING`,
      [merchant],
      client,
    );
    row = await queryExactlyOne<{ last: string }>(update, [merchant, count], client);
  }
  return BigInt(row.last) - BigInt(count) + 1n;
}

/** Takes the next `count` numbers of `sequence` for `merchant`, formatted, in order. */
async function takeNextNumbers(
  client: pg.PoolClient,
  sequence: keyof typeof SEQUENCES,
  merchant: string,
  count: number,
): Promise<string[]> {
  if (count <= 0) return [];
  const first = await reserveNumbers(client, sequence, merchant, count);
  const prefix = SEQUENCES[sequence].prefix();
  return Array.from({ length: count }, (_, i) => formatInvoiceNumber(first + BigInt(i), prefix));
}

/** Takes the next number of `sequence` for `merchant`, formatted. */
async function takeNextNumber(client: pg.PoolClient, sequence: keyof typeof SEQUENCES, merchant: string) {
  return formatInvoiceNumber(await reserveNumbers(client, sequence, merchant, 1), SEQUENCES[sequence].prefix());
}

/** Takes the next invoice number of `merchant`, in the caller's database transaction. */
export async function nextInvoiceNumber(client: pg.PoolClient, merchant: string = DEFAULT_MERCHANT): Promise<string> {
  return takeNextNumber(client, "invoice", merchant);
}

/** Takes the next `count` invoice numbers of `merchant`, in order, in the caller's database transaction. */
export function nextInvoiceNumbers(
  client: pg.PoolClient,
  count: number,
  merchant: string = DEFAULT_MERCHANT,
): Promise<string[]> {
  return takeNextNumbers(client, "invoice", merchant, count);
}

/**
 * Takes the next credit-note number of `merchant` (CN-000001), in the caller's database
 * transaction: when a refund or credit is approved. Lock order: transaction row → counter row.
 */
export async function nextCreditNoteNumber(
  client: pg.PoolClient,
  merchant: string = DEFAULT_MERCHANT,
): Promise<string> {
  return takeNextNumber(client, "credit_note", merchant);
}
