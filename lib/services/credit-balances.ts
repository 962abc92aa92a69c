/**
 * Customers' credit balances (decision: credits-as-negative-lines): one per currency, from prorated credits that exceed
 * a subscription change's charge (`credit_to_balance`); `available` is used by later transactions
 * of the customer in that currency (→ `used`); `reserved` holds what a billed, unpaid transaction
 * took (→ `used` when it completes, back to `available` when it is canceled).
 */
import type pg from "pg";
import { creditTaken } from "../billing/payments.ts";
import { query } from "../db/sql.ts";
import { notFound } from "../errors.ts";

export interface CreditBalance {
  customer_id: string;
  currency_code: string;
  balance: { available: string; reserved: string; used: string };
}

export async function listCreditBalances(customerId: string, currency?: string): Promise<CreditBalance[]> {
  const rows = await query<CreditBalance & { found: boolean }>(
    `SELECT c.id AS customer_id, b.currency_code,
            json_build_object('available', b.available::text, 'reserved', b.reserved::text, 'used', b.used::text) AS balance
       FROM customers c LEFT JOIN credit_balances b ON b.customer_id = c.id AND ($2::text IS NULL OR b.currency_code = $2)
      WHERE c.id = $1 ORDER BY b.currency_code`,
    [customerId, currency ?? null],
  );
  if (rows.length === 0) throw notFound(customerId);
  return rows.filter((row) => row.currency_code !== null);
}

/** Adds `amount` (minor units) to the customer's available credit in `currency`. */
export async function addCredit(
  client: pg.PoolClient,
  customerId: string,
  currency: string,
  amount: bigint,
): Promise<void> {
  if (amount <= 0n) return;
  await query(
    `INSERT INTO credit_balances (customer_id, currency_code, available) VALUES ($1, $2, $3)
     ON CONFLICT (customer_id, currency_code) DO UPDATE SET available = credit_balances.available + EXCLUDED.available, updated_at = now()`,
    [customerId, currency, amount.toString()],
    client,
  );
}

/**
 * Takes up to `wanted` of the customer's available credit in `currency` (row locked), moving it to
 * `used` (`settled`: a transaction completed at once) or `reserved` (billed, unpaid). Returns what
 * was taken.
 */
export async function takeCredit(
  client: pg.PoolClient,
  customerId: string,
  currency: string,
  wanted: bigint,
  settled: boolean,
): Promise<bigint> {
  if (wanted <= 0n) return 0n;
  const [row] = await query<{ available: string }>(
    "SELECT available::text FROM credit_balances WHERE customer_id = $1 AND currency_code = $2 FOR UPDATE",
    [customerId, currency],
    client,
  );
  const available = row ? BigInt(row.available) : 0n;
  const taken = creditTaken(available, wanted);
  if (taken === 0n) return 0n;
  await query(
    `UPDATE credit_balances SET available = available - $3, ${settled ? "used = used + $3" : "reserved = reserved + $3"}, updated_at = now()
      WHERE customer_id = $1 AND currency_code = $2`,
    [customerId, currency, taken.toString()],
    client,
  );
  return taken;
}
