/**
 * The dashboard's "Preview PDF" before "Issue invoice" (which cannot be undone): the invoice a
 * ready manually-collected transaction would get if issued now, rendered by the same code as the
 * issued invoice (lib/documents/invoice.ts) but stamped DRAFT, dated now and without a number: no
 * invoice number is taken and nothing is written.
 */
import { PREVIEW_INVOICE_NUMBER, renderInvoicePdf } from "../documents/invoice.ts";
import { type InvoiceTransaction, invoiceDataFromTransaction } from "../documents/invoice-data.ts";
import { ApiError } from "../errors.ts";
import { getAccountSettings } from "./account-settings.ts";
import { merchantDetails } from "./documents.ts";
import { getTransaction } from "./transactions/get.ts";

export async function invoicePreviewPdf(
  id: string,
  now = new Date(),
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const transaction = (
    await getTransaction(id, ["customer", "address", "business", "discount"])
  ).parse() as InvoiceTransaction;
  if (transaction.collection_mode !== "manual" || transaction.status !== "ready") {
    throw new ApiError(
      "transaction_invoice_unavailable",
      transaction.collection_mode !== "manual"
        ? `Transaction ${id} is automatically collected: only a manually-collected transaction is issued as an invoice.`
        : `Transaction ${id} is ${transaction.status}: only a ready transaction (not issued yet) has an invoice preview.`,
    );
  }
  const data = invoiceDataFromTransaction(
    { ...transaction, billed_at: now.toISOString(), invoice_number: PREVIEW_INVOICE_NUMBER },
    await merchantDetails(),
  );
  // The bank details print as they will on the issued invoice; its "Pay online" link exists only
  // once it is issued.
  const { bank_transfer_instructions } = await getAccountSettings();
  return {
    bytes: await renderInvoicePdf({ ...data, preview: true, bankTransferInstructions: bank_transfer_instructions }),
    fileName: `invoice-preview-${id}.pdf`,
  };
}
