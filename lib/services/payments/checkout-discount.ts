/**
 * A discount code typed at the hosted checkout (POST/DELETE /checkout/{id}/discount), as the
 * family's checkout takes one.
 *
 * Decisions:
 * - Only discounts enabled for checkout (`enabled_for_checkout`) with a code apply, matched without
 *   regard to case (codes are unique so); a custom (non-catalogue) discount never does.
 * - Only while the checkout can still change the transaction: a ready, automatically-collected
 *   one (a billed invoice's amount is fixed). It is applied through the transaction's own PATCH
 *   (updateTransaction): one totals engine, the same redemption rules (expired, used up, currency,
 *   restrict_to), the same `transaction.updated` event.
 * - The buyer reads why a code does not apply in their words, on the `code` field; the merchant's
 *   internal discount ID is never shown.
 * - Removing takes off only a discount the buyer could have typed (enabled for checkout, with a
 *   code); a discount the merchant set on the transaction stays.
 */
import { query } from "../../db/sql.ts";
import { ApiError, invalidField, notFound } from "../../errors.ts";
import type { CheckoutView } from "../../schemas/payment.ts";
import { updateTransaction } from "../transactions/update.ts";
import { getCheckout } from "./checkout.ts";

interface TransactionRow {
  status: string;
  collection_mode: string;
  discount_id: string | null;
}

async function editable(id: string): Promise<TransactionRow> {
  const [row] = await query<TransactionRow>(
    "SELECT status, collection_mode, discount_id FROM transactions WHERE id = $1",
    [id],
  );
  if (!row) throw notFound(id);
  if (row.status !== "ready" || row.collection_mode !== "automatic") {
    throw invalidField("code", "cannot be applied to this payment: its amount is already fixed");
  }
  return row;
}

/** The buyer's words for a redemption rule the transaction's PATCH refused. */
function codeProblem(message: string, currency: string | null): string {
  if (/expired/.test(message)) return "has expired";
  if (/usage_limit/.test(message)) return "has been used as many times as it allows";
  if (/archived/.test(message)) return "is no longer valid";
  if (/currency|applies only to transactions in/.test(message)) {
    return currency ? `does not apply to payments in ${currency}` : "does not apply to this payment's currency";
  }
  return "does not apply to this purchase";
}

export async function applyCheckoutDiscount(id: string, code: string): Promise<CheckoutView> {
  await editable(id);
  const [discount] = await query<{ id: string; currency_code: string | null }>(
    `SELECT id, currency_code FROM discounts
      WHERE lower(code) = lower($1) AND enabled_for_checkout AND mode = 'standard'
      ORDER BY id LIMIT 1`,
    [code],
  );
  if (!discount) throw invalidField("code", `${code} is not a valid discount code`);
  try {
    await updateTransaction(id, { discount_id: discount.id });
  } catch (error) {
    if (error instanceof ApiError && (error.code === "invalid_field" || error.code === "entity_archived")) {
      const message = error.errors?.map((e) => e.message).join(" ") ?? error.detail;
      throw invalidField("code", `${code} ${codeProblem(message, discount.currency_code)}`);
    }
    throw error;
  }
  return getCheckout(id);
}

export async function removeCheckoutDiscount(id: string): Promise<CheckoutView> {
  const row = await editable(id);
  if (row.discount_id) {
    const [typed] = await query("SELECT 1 FROM discounts WHERE id = $1 AND enabled_for_checkout AND code IS NOT NULL", [
      row.discount_id,
    ]);
    if (typed) await updateTransaction(id, { discount_id: null });
  }
  return getCheckout(id);
}
