/**
 * The hosted invoice page (app/invoices/[token]): what it shows, from a signed link
 * (lib/documents/hosted-invoice-links.ts), and the link itself for the dashboard's
 * "Copy invoice link" and the invoice-issued email.
 *
 * The page offers: the invoice as its PDF prints it, a PDF download (a one-hour signed document
 * link made when the page is shown), "Pay by card" through the hosted checkout of the transaction
 * when that checkout takes its payment (automatic collection, or a manual invoice with
 * billing_details.enable_checkout; sandbox only, as the checkout), and the bank-transfer
 * instructions from the account settings. A paid or canceled invoice shows its state instead.
 */

import { canPayAtCheckout } from "../billing/transaction-states.ts";
import { config } from "../config.ts";
import { checkoutUrl } from "../db/entities/transaction.ts";
import { HOSTED_INVOICE_LINK_LIFETIME_SECONDS, verifyHostedInvoiceToken } from "../documents/hosted-invoice-links.ts";
import type { InvoiceData } from "../documents/invoice.ts";
import {
  type InvoiceTransaction,
  invoiceDataFromTransaction,
  invoiceUnavailableReason,
} from "../documents/invoice-data.ts";
import { ApiError } from "../errors.ts";
import { getAccountSettings } from "./account-settings.ts";
import { documentUrl, hostedInvoiceUrlFor, linkKey, merchantDetails } from "./documents.ts";
import { getTransaction } from "./transactions/get.ts";

// The link itself lives beside the invoice PDF, which prints it as "Pay online".
export { hostedInvoiceUrlFor } from "./documents.ts";

/** GET /transactions/{transaction_id}/invoice-link: the hosted page of a transaction that has an invoice. */
export async function hostedInvoiceLink(id: string): Promise<{ url: string; expires_at: string }> {
  const transaction = (await getTransaction(id)).parse();
  const reason = invoiceUnavailableReason(transaction);
  if (reason) throw new ApiError("transaction_invoice_unavailable", reason);
  const now = Date.now();
  return {
    url: await hostedInvoiceUrlFor(id, now),
    expires_at: new Date(Math.floor(now / 1000) * 1000 + HOSTED_INVOICE_LINK_LIFETIME_SECONDS * 1000).toISOString(),
  };
}

export type HostedInvoiceState = "open" | "past_due" | "paid" | "canceled";

export interface HostedInvoiceView {
  state: HostedInvoiceState;
  transactionId: string;
  invoiceNumber: string;
  invoice: InvoiceData;
  /** A one-hour signed link to download the PDF; null for a canceled invoice. */
  pdfUrl: string | null;
  /** The hosted checkout that takes the card payment, when it does. */
  checkoutUrl: string | null;
  bankTransferInstructions: string | null;
  sandbox: boolean;
}

export type HostedInvoiceResult =
  | { ok: true; view: HostedInvoiceView }
  | { ok: false; problem: "invalid" | "expired" | "not_found" | "no_invoice" };

/** What the page shows for `token` (anything from the URL): never throws for a bad link. */
export async function loadHostedInvoice(token: unknown, now = Date.now()): Promise<HostedInvoiceResult> {
  const check = verifyHostedInvoiceToken(token, await linkKey(), Math.floor(now / 1000));
  if (!check.ok) return { ok: false, problem: check.reason };
  const id = check.link.transactionId;
  let transaction: InvoiceTransaction;
  try {
    transaction = (
      await getTransaction(id, ["customer", "address", "business", "discount"])
    ).parse() as InvoiceTransaction;
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") return { ok: false, problem: "not_found" };
    throw error;
  }
  const canceled = transaction.status === "canceled";
  // A canceled invoice still shows what it was (marked canceled); otherwise it must have an invoice.
  const reason = invoiceUnavailableReason(canceled ? { ...transaction, status: "billed" } : transaction);
  if (reason || !transaction.invoice_number) return { ok: false, problem: "no_invoice" };
  const settings = await getAccountSettings();
  const invoice = invoiceDataFromTransaction(transaction, await merchantDetails({ logo: false }));
  const state: HostedInvoiceState = canceled
    ? "canceled"
    : invoice.paid
      ? "paid"
      : transaction.status === "past_due"
        ? "past_due"
        : "open";
  const sandbox = config.environment === "sandbox";
  const payable = !canceled && !invoice.paid && sandbox && canPayAtCheckout(transaction);
  return {
    ok: true,
    view: {
      state,
      transactionId: id,
      invoiceNumber: transaction.invoice_number,
      invoice,
      pdfUrl: canceled ? null : (await documentUrl("invoice", id, "attachment", now)).url,
      checkoutUrl: payable ? checkoutUrl(id) : null,
      bankTransferInstructions: state === "open" || state === "past_due" ? settings.bank_transfer_instructions : null,
      sandbox,
    },
  };
}
