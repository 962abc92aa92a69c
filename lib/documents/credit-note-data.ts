/**
 * What a credit note shows, from an adjustment and its transaction as the API returns them (the
 * transaction with `include=customer,address,business`) and the merchant's details. Pure: no
 * database, so it is tested with plain values.
 */
import type { Adjustment } from "../schemas/adjustment.ts";
import type { CreditNoteData, CreditNoteLine, Merchant } from "./credit-note.ts";
import { type InvoiceTransaction, recipient, text } from "./invoice-data.ts";

/** The actions that give money back against an invoice, and so have a credit note. */
const CREDIT_NOTE_ACTIONS = new Set(["refund", "credit"]);

/**
 * Why the adjustment has no credit note, or null when it has one. As the API family: credit notes
 * record refunds and credits, once approved (a pending refund may still be rejected, a rejected
 * one gave nothing back); chargebacks are the card issuer's, not the merchant's, document.
 */
export function creditNoteUnavailableReason(adjustment: Pick<Adjustment, "id" | "action" | "status">): string | null {
  const { id, action, status } = adjustment;
  if (!CREDIT_NOTE_ACTIONS.has(action)) {
    return `Adjustment ${id} is a ${action} adjustment: only refunds and credits have a credit note.`;
  }
  if (status === "pending_approval") {
    return `Adjustment ${id} is pending approval: its credit note is issued once the ${action} is approved.`;
  }
  if (status !== "approved") {
    return `Adjustment ${id} is ${status}: nothing was given back, so it has no credit note.`;
  }
  return null;
}

/** The credit note of `adjustment` (which must have one: see creditNoteUnavailableReason). */
export function creditNoteDataFromAdjustment(
  adjustment: Adjustment,
  transaction: InvoiceTransaction,
  creditNoteNumber: string,
  merchant: Merchant,
): CreditNoteData {
  const linesById = new Map(transaction.details.line_items.map((line) => [line.id, line]));
  const prices = new Map(transaction.items.map((item) => [item.price_id, item.price]));
  const lines = adjustment.items.map((item): CreditNoteLine => {
    const line = linesById.get(item.item_id);
    const product = text(line?.product.name) ?? "Item";
    const price = line ? prices.get(line.price_id) : undefined;
    const priceText = text(price?.name); // the price's description is internal ("not shown to customers")
    return {
      description: product,
      detail: priceText && priceText !== product ? priceText : null,
      // Whole units only when the line is given back in full; a partial amount has no quantity.
      quantity: item.type === "full" && line ? line.quantity : null,
      amount: item.totals.subtotal,
      taxRate: line?.tax_rate ?? "0",
      tax: item.totals.tax,
      total: item.totals.total,
    };
  });
  return {
    creditNoteNumber,
    issuedAt: adjustment.created_at,
    invoiceNumber: transaction.invoice_number ?? null,
    transactionId: transaction.id,
    action: adjustment.action,
    reason: adjustment.reason,
    currency: adjustment.currency_code,
    merchant,
    billTo: recipient(transaction),
    lines,
    totals: { subtotal: adjustment.totals.subtotal, tax: adjustment.totals.tax, total: adjustment.totals.total },
  };
}
