/**
 * Completed transactions for metrics tests, written straight to the table the way the payments
 * contract says a completion looks: ONE UPDATE that sets `status = 'completed'`, `completed_at`,
 * `details.totals.fee`, `details.totals.earnings` and `details.payout_totals` (lib/billing/totals.ts
 * `payoutTotals`, 5% + 50 by default). The rollup's triggers see exactly what they will see in
 * production.
 */
import { payoutTotals } from "../../billing/totals.ts";
import { pool } from "../../db/connection.ts";
import { newId } from "../../ids.ts";

export const TEST_FEES = { percent: "5", fixed: 50n } as const;

/**
 * Completes an existing transaction by one UPDATE. Returns the earnings it was given (computed
 * from its totals by `payoutTotals`).
 */
export async function completeTransaction(id: string, completedAt: Date | string = new Date()): Promise<string> {
  const { rows } = await pool().query<{ details: { totals: Parameters<typeof payoutTotals>[0] } }>(
    "SELECT details FROM transactions WHERE id = $1",
    [id],
  );
  if (!rows[0]) throw new Error(`no transaction ${id}`);
  const payout = payoutTotals(rows[0].details.totals, TEST_FEES);
  await pool().query(
    `UPDATE transactions
     SET status = 'completed', completed_at = $2, updated_at = now(),
         details = (jsonb_set(jsonb_set(jsonb_set(details::jsonb,
                     '{totals,fee}', to_jsonb($3::text)),
                     '{totals,earnings}', to_jsonb($4::text)),
                     '{payout_totals}', $5::jsonb))::json
     WHERE id = $1`,
    [id, completedAt, payout.fee, payout.earnings, JSON.stringify(payout)],
  );
  return payout.earnings;
}

/** Sets a transaction's status by a bare UPDATE (for statuses that must never count). */
export async function setStatus(id: string, status: string): Promise<void> {
  await pool().query("UPDATE transactions SET status = $2, updated_at = now() WHERE id = $1", [id, status]);
}

/**
 * INSERTs a transaction row that is completed from the start (imports, or a row written whole),
 * with `earnings` (minor units of `currency`) in its totals. No items: the rollup reads none.
 * Returns its ID.
 */
export async function insertCompletedTransaction(options: {
  currency: string;
  earnings: string;
  completedAt: Date | string | null;
  status?: string;
}): Promise<string> {
  const id = newId("txn");
  const totals = { earnings: options.earnings, fee: "0", currency_code: options.currency };
  await pool().query(
    `INSERT INTO transactions (id, status, currency_code, details, completed_at)
     VALUES ($1, $2, $3, $4::json, $5)`,
    [
      id,
      options.status ?? "completed",
      options.currency,
      JSON.stringify({ totals, line_items: [], tax_rates_used: [] }),
      options.completedAt,
    ],
  );
  return id;
}

/** The rollup's days (the sums of their quarter-hours), oldest first. */
export async function rollupRows(): Promise<{ day: string; currency_code: string; amount: string; count: number }[]> {
  const { rows } = await pool().query(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, currency_code, sum(amount)::text AS amount, sum(count)::int AS count
     FROM revenue_daily GROUP BY day, currency_code ORDER BY day, currency_code`,
  );
  return rows;
}
