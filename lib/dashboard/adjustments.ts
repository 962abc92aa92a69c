/**
 * Adjustments in the dashboard: creating a refund or credit of the transaction on screen, and what
 * is left to adjust of each of its lines (the same rule as the API: lib/billing/adjustments.ts).
 */
import { canCredit, canRefund, leftOn, type Split, usesUpAmount } from "../billing/adjustments.ts";
import type { Adjustment, CreateAdjustmentInput } from "../schemas/adjustment.ts";
import { api } from "./api.ts";
import { type EntityResponse, useSave } from "./hooks.ts";
import { type TransactionWithIncludes, transactionKeys } from "./transactions.ts";

export type { Adjustment };
export { canCredit, canRefund };

/** POST /adjustments; the transaction's page and every transaction list refresh. */
export function useCreateAdjustment(transactionId: string) {
  return useSave(
    async (body: CreateAdjustmentInput) =>
      (await api<EntityResponse<Adjustment>>("/adjustments", { method: "POST", body })).data,
    () => [transactionKeys.detail(transactionId), transactionKeys.lists],
  );
}

/** The transaction's adjustments, as its page includes them. */
export function adjustmentsOf(t: TransactionWithIncludes): Adjustment[] {
  return (t.adjustments ?? []) as unknown as Adjustment[];
}

/** What is left to adjust of each line of `t` (minor units), after its adjustments not rejected. */
export function leftByLine(t: TransactionWithIncludes): Map<string, Split> {
  const used = new Map<string, Split[]>();
  for (const adjustment of adjustmentsOf(t)) {
    if (!usesUpAmount(adjustment.status, adjustment.action)) continue;
    for (const item of adjustment.items) {
      const split = {
        subtotal: BigInt(item.totals.subtotal),
        tax: BigInt(item.totals.tax),
        total: BigInt(item.totals.total),
      };
      used.set(item.item_id, [...(used.get(item.item_id) ?? []), split]);
    }
  }
  const out = new Map<string, Split>();
  for (const line of t.details.line_items) {
    const charged = {
      id: line.id,
      taxRate: line.tax_rate,
      total: BigInt(line.totals.total),
      tax: BigInt(line.totals.tax),
    };
    out.set(line.id, leftOn(charged, used.get(line.id) ?? []));
  }
  return out;
}
