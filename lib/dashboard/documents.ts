/**
 * Documents in the dashboard: whether a transaction has an invoice PDF and an adjustment a credit
 * note (the API's own rules, from lib/documents/), and the signed links to them
 * (GET /transactions/{id}/invoice, GET /adjustments/{id}/credit-note).
 */
import { creditNoteUnavailableReason } from "../documents/credit-note-data.ts";
import { invoiceUnavailableReason } from "../documents/invoice-data.ts";
import type { Adjustment } from "../schemas/adjustment.ts";
import type { Disposition, DocumentUrl } from "../schemas/document.ts";
import type { Transaction } from "../schemas/transaction.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc } from "./hooks.ts";

export function hasInvoice(
  transaction: Pick<Transaction, "id" | "status" | "collection_mode" | "invoice_number" | "details">,
): boolean {
  return invoiceUnavailableReason(transaction) === null;
}

/** A link to the transaction's invoice PDF, valid for an hour. */
export async function fetchInvoiceUrl(transactionId: string, disposition: Disposition = "attachment"): Promise<string> {
  const response = await api<EntityResponse<DocumentUrl>>(
    `/transactions/${enc(transactionId)}/invoice?disposition=${disposition}`,
  );
  return response.data.url;
}

export function hasCreditNote(adjustment: Pick<Adjustment, "id" | "action" | "status">): boolean {
  return creditNoteUnavailableReason(adjustment) === null;
}

/** A link to the adjustment's credit note PDF, valid for an hour. */
export async function fetchCreditNoteUrl(
  adjustmentId: string,
  disposition: Disposition = "attachment",
): Promise<string> {
  const response = await api<EntityResponse<DocumentUrl>>(
    `/adjustments/${enc(adjustmentId)}/credit-note?disposition=${disposition}`,
  );
  return response.data.url;
}

/** Starts the browser's download of `url` (an attachment: the page stays where it is). */
export function startDownload(url: string): void {
  const link = document.createElement("a");
  link.href = url;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}

/** The public hosted invoice page of a transaction that has an invoice (a signed link, valid 180 days). */
export async function fetchHostedInvoiceUrl(transactionId: string): Promise<string> {
  const response = await api<EntityResponse<{ url: string; expires_at: string }>>(
    `/transactions/${enc(transactionId)}/invoice-link`,
  );
  return response.data.url;
}

/** The would-be invoice PDF of a ready manual transaction (stamped DRAFT), opened in a new tab. */
export function invoicePreviewPath(transactionId: string): string {
  return `/api/transactions/${enc(transactionId)}/invoice-preview`;
}
