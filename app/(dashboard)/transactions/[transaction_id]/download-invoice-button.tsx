"use client";

import { DownloadDocumentButton } from "@/components/download-document-button";
import { fetchInvoiceUrl, hasInvoice } from "@/lib/dashboard/documents";
import type { Transaction } from "@/lib/schemas/transaction";

/**
 * "Download invoice", for a transaction that has an invoice (billed, past due or paid manual
 * invoices; completed automatic ones): asks the API for a signed link, then downloads the PDF.
 */
export function DownloadInvoiceButton({ transaction }: { transaction: Transaction }) {
  if (!hasInvoice(transaction)) return null;
  return (
    <DownloadDocumentButton
      fetchUrl={() => fetchInvoiceUrl(transaction.id)}
      document="the invoice"
      pendingLabel="Preparing invoice…"
    >
      Download invoice
    </DownloadDocumentButton>
  );
}
