/**
 * Documents in the dashboard: whether a transaction has an invoice PDF (the API's own rule, from
 * lib/documents/invoice-data.ts) and the signed link to it (GET /transactions/{id}/invoice).
 */
import { invoiceUnavailableReason } from "../documents/invoice-data.ts";
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

/** Starts the browser's download of `url` (an attachment: the page stays where it is). */
export function startDownload(url: string): void {
  const link = document.createElement("a");
  link.href = url;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}
