"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { useToast } from "@/components/toast";
import { fetchInvoiceUrl, hasInvoice, startDownload } from "@/lib/client/documents";
import type { Transaction } from "@/lib/schemas/transaction";

/**
 * "Download invoice", for a transaction that has an invoice (billed, past due or paid manual
 * invoices; completed automatic ones): asks the API for a signed link, then downloads the PDF.
 */
export function DownloadInvoiceButton({ transaction }: { transaction: Transaction }) {
  const [pending, setPending] = useState(false);
  const toast = useToast();
  if (!hasInvoice(transaction)) return null;

  async function download() {
    setPending(true);
    try {
      startDownload(await fetchInvoiceUrl(transaction.id));
    } catch (error) {
      toast.show(`Could not download the invoice: ${(error as Error).message}`, "error");
    } finally {
      setPending(false);
    }
  }

  return (
    <Button variant="secondary" onClick={download} pending={pending} pendingLabel="Preparing invoice…">
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4">
        <path d="M10 3a1 1 0 0 1 1 1v7.59l2.3-2.3a1 1 0 1 1 1.4 1.42l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.42l2.3 2.3V4a1 1 0 0 1 1-1Zm-6 12a1 1 0 0 1 1 1v1h10v-1a1 1 0 1 1 2 0v2a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-2a1 1 0 0 1 1-1Z" />
      </svg>
      Download invoice
    </Button>
  );
}
