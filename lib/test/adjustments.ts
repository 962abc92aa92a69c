/**
 * Completed transactions for adjustment tests, without the payments flow: `completeInSql` does
 * directly in SQL what a captured payment does by contract (status `completed`, `completed_at`,
 * `billed_at`, a captured card payment, `details.totals.fee`/`earnings` and `details.payout_totals`
 * from lib/billing/totals.ts `payoutTotals` with the default fee of 5% + 50). It writes no event.
 * Depends on nothing but `pg` and the pure billing engine, so Playwright specs use it too.
 */
import { adjustedPayoutTotals, adjustedTotals } from "../billing/adjustments.ts";
import { type FeeConfig, payoutTotals, type TransactionTotals } from "../billing/totals.ts";

/** The fee of the contract's defaults (BILLING_FEE_PERCENT 5, BILLING_FEE_FIXED 50). */
export const TEST_FEES: FeeConfig = { percent: "5", fixed: 50n };

interface Client {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, any>[] }>;
}

const NOTHING = { subtotal: 0n, tax: 0n, total: 0n, fee: 0n, retainedFee: 0n, earnings: 0n };

/** Completes transaction `id` as a captured card payment would (see the top of this file). */
export async function completeInSql(client: Client, id: string): Promise<void> {
  const { rows } = await client.query("SELECT details FROM transactions WHERE id = $1", [id]);
  if (!rows[0]) throw new Error(`no transaction ${id}`);
  const details = rows[0].details;
  const payout = payoutTotals(details.totals as TransactionTotals, TEST_FEES);
  const totals = { ...details.totals, fee: payout.fee, earnings: payout.earnings };
  const completed = {
    ...details,
    totals,
    adjusted_totals: adjustedTotals(totals, NOTHING),
    payout_totals: payout,
    adjusted_payout_totals: adjustedPayoutTotals(payout, NOTHING),
  };
  const payment = {
    payment_attempt_id: crypto.randomUUID(),
    stored_payment_method_id: crypto.randomUUID(),
    payment_method_id: null,
    amount: details.totals.grand_total,
    status: "captured",
    error_code: null,
    method_details: {
      type: "card",
      card: { type: "visa", last4: "4242", expiry_month: 12, expiry_year: 2030, cardholder_name: "Sam Buyer" },
    },
    created_at: new Date().toISOString(),
    captured_at: new Date().toISOString(),
  };
  await client.query(
    `UPDATE transactions
        SET status = 'completed', completed_at = now(), billed_at = coalesce(billed_at, now()), updated_at = now(),
            details = $2, payments = $3
      WHERE id = $1`,
    [id, JSON.stringify(completed), JSON.stringify([payment])],
  );
}
