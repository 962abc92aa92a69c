"use client";

import { useState } from "react";
import { Button } from "@/components/button";
import { CopyField, copyText } from "@/components/copy-button";
import { useToast } from "@/components/toast";
import { fetchHostedInvoiceUrl, hasInvoice } from "@/lib/dashboard/documents";
import type { Transaction } from "@/lib/schemas/transaction";

/**
 * "Copy invoice link": asks the API for the hosted invoice page's signed link, copies it, and shows
 * it (with its own Copy button and a way to open it) in case the clipboard refused.
 */
export function InvoiceLinkButton({
  transaction,
  onLink,
}: {
  transaction: Transaction;
  onLink: (url: string) => void;
}) {
  const [pending, setPending] = useState(false);
  const toast = useToast();
  if (!hasInvoice(transaction)) return null;

  async function copy() {
    setPending(true);
    try {
      const url = await fetchHostedInvoiceUrl(transaction.id);
      onLink(url);
      toast.show((await copyText(url)) ? "Invoice link copied." : "Invoice link ready: copy it below.");
    } catch (error) {
      toast.show(`Could not get the invoice link: ${(error as Error).message}`, "error");
    } finally {
      setPending(false);
    }
  }

  return (
    <Button variant="secondary" onClick={copy} pending={pending} pendingLabel="Getting link…">
      Copy invoice link
    </Button>
  );
}

/** The link once fetched: the customer's page (public, valid 180 days). */
export function InvoiceLinkField({ url }: { url: string }) {
  return (
    <div className="mb-6 rounded-lg border border-slate-200 bg-white p-4">
      <CopyField id="hosted-invoice-link" label="Hosted invoice page" value={url} copyLabel="Copy invoice link again" />
      <p className="mt-2 text-xs text-slate-600">
        Anyone with this link can see and pay the invoice; it expires in 180 days.{" "}
        <a href={url} target="_blank" rel="noopener noreferrer" className="text-brand-700 underline">
          Open the page
        </a>
      </p>
    </div>
  );
}
