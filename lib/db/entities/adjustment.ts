/**
 * The adjustment's API shape (a whitelist in the API family's field order) and the SQL of a
 * transaction's `adjustments_totals`. Apart from lib/services/adjustments/ so that transactions
 * can include adjustments without the two service modules importing each other.
 */

import type { Adjustment } from "../../schemas/adjustment.ts";
import { type EntityTable, jsonRecord, ts } from "../sql.ts";

const amount = (column: string) => `${column}::text`;

const ITEMS = `(SELECT coalesce(json_agg(${jsonRecord([
  ["id", "i.id"],
  ["item_id", "i.item_id"],
  ["type", "i.type"],
  ["amount", amount("i.amount")],
  ["proration", "NULL::json"],
  [
    "totals",
    jsonRecord([
      ["subtotal", amount("i.subtotal")],
      ["tax", amount("i.tax")],
      ["total", amount("i.total")],
    ]),
  ],
])} ORDER BY i.position), '[]'::json) FROM adjustment_items i WHERE i.adjustment_id = t.id)`;

const TOTALS = jsonRecord([
  ["subtotal", amount("t.subtotal")],
  ["tax", amount("t.tax")],
  ["total", amount("t.total")],
  ["fee", amount("t.fee")],
  ["retained_fee", amount("t.retained_fee")],
  ["earnings", amount("t.earnings")],
  ["currency_code", "t.currency_code"],
]);

/**
 * In the transaction's currency: payouts are not converted (see lib/billing/totals.ts payoutTotals;
 * a Stripe payout in another currency is converted in the transaction's adjusted_payout_totals
 * only). `chargeback_fee`: a chargeback's dispute fee (0 for the other actions).
 */
const PAYOUT_TOTALS = `CASE WHEN t.has_payout THEN ${jsonRecord([
  ["subtotal", amount("t.subtotal")],
  ["tax", amount("t.tax")],
  ["total", amount("t.total")],
  ["fee", amount("t.fee")],
  ["retained_fee", amount("t.retained_fee")],
  [
    "chargeback_fee",
    jsonRecord([
      ["amount", amount("t.chargeback_fee")],
      ["original", "NULL::json"],
    ]),
  ],
  ["earnings", amount("t.earnings")],
  ["currency_code", "t.currency_code"],
])} END`;

export const ADJUSTMENT: EntityTable<Adjustment> = {
  table: "adjustments",
  fields: [
    ["id", "t.id"],
    ["action", "t.action"],
    ["type", "t.type"],
    ["transaction_id", "t.transaction_id"],
    ["subscription_id", "t.subscription_id"],
    ["customer_id", "t.customer_id"],
    ["reason", "t.reason"],
    // Only credits can go to the customer's balance: null for the other actions, as the API family has it.
    ["credit_applied_to_balance", "CASE WHEN t.action = 'credit' THEN t.credit_applied_to_balance END"],
    ["currency_code", "t.currency_code"],
    ["status", "t.status"],
    ["items", ITEMS],
    ["totals", TOTALS],
    ["payout_totals", PAYOUT_TOTALS],
    ["tax_rates_used", "t.tax_rates_used"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};

/** Adjustments that count in a transaction's adjusted totals and `adjustments_totals`. */
export const COUNTED_STATUS = "approved";
/** lib/billing/adjustments.ts AMOUNT_ACTIONS, as SQL (lib/db does not import lib/billing; a test holds them equal). */
export const AMOUNT_ACTIONS_SQL = "'refund', 'credit', 'chargeback'";
/** The SQL condition on adjustment row `a` that it counts: approved, of an action that takes amounts off. */
export const COUNTED = (a: string) => `${a}.status = '${COUNTED_STATUS}' AND ${a}.action IN (${AMOUNT_ACTIONS_SQL})`;

const sumOf = (expr: string, filter = "") =>
  `coalesce(sum(${expr})${filter ? ` FILTER (WHERE ${filter})` : ""}, 0)::text`;

/**
 * `adjustments_totals` of the transaction row `t`: the sums of its approved adjustments, with the
 * total of each kind in `breakdown`, in the transaction's currency.
 */
export const ADJUSTMENTS_TOTALS = `(SELECT row_to_json(r) FROM (
    SELECT s.subtotal, s.tax, s.total, s.fee, s.retained_fee, s.earnings,
           (SELECT row_to_json(b) FROM (SELECT s.credit, s.refund, s.chargeback) b) AS breakdown,
           t.currency_code AS currency_code
    FROM (SELECT ${sumOf("a.subtotal")} AS subtotal, ${sumOf("a.tax")} AS tax, ${sumOf("a.total")} AS total,
                 ${sumOf("a.fee")} AS fee, ${sumOf("a.retained_fee")} AS retained_fee,
                 ${sumOf("a.earnings")} AS earnings,
                 ${sumOf("a.total", "a.action = 'credit'")} AS credit,
                 ${sumOf("a.total", "a.action = 'refund'")} AS refund,
                 ${sumOf("a.total", "a.action = 'chargeback'")} AS chargeback
          FROM adjustments a WHERE a.transaction_id = t.id AND ${COUNTED("a")}) s) r)`;
