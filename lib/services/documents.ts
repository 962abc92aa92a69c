/**
 * Documents generated on request from stored data (no file storage): the invoice PDF of a
 * transaction, reached through a signed link valid for one hour (spec: the API family's
 * GET /transactions/{transaction_id}/invoice), and the PDF response of a signed link. Credit notes
 * (GET /adjustments/{adjustment_id}/credit-note) use the same links: lib/services/credit-notes.ts.
 *
 * The links are signed with a key derived from the session secret (sessionSecret(): NEXTAUTH_SECRET
 * or the generated one kept in the database), under its own label so that a link signature can
 * never stand in for a session token. Every web process of a deployment shares that secret, so
 * a link made by one is accepted by all; changing the secret voids the links handed out before.
 */
import { createHmac } from "node:crypto";
import { config } from "../config.ts";
import { HOSTED_INVOICE_LINK_LIFETIME_SECONDS, hostedInvoiceToken } from "../documents/hosted-invoice-links.ts";
import { invoiceFileName, type Merchant, renderInvoicePdf } from "../documents/invoice.ts";
import {
  type InvoiceTransaction,
  invoiceDataFromTransaction,
  invoiceUnavailableReason,
} from "../documents/invoice-data.ts";
import {
  type DocumentKind,
  documentLinkPath,
  LINK_LIFETIME_SECONDS,
  type ReceivedLink,
  verifyDocumentLink,
} from "../documents/signed-links.ts";
import { ApiError } from "../errors.ts";
import { FileResult } from "../http/results.ts";
import type { Disposition, DocumentUrl } from "../schemas/document.ts";
import { getAccountSettings, getLogo } from "./account-settings.ts";
import { sessionSecret } from "./settings.ts";
import { getTransaction } from "./transactions/get.ts";

/**
 * The merchant's details as documents print them (from the account settings): dates in the
 * merchant's time zone, and the logo's bytes for PDFs (`logo: false` for a page, which shows the
 * logo by its public URL instead).
 */
export async function merchantDetails(options: { logo?: boolean } = {}): Promise<Merchant> {
  const settings = await getAccountSettings();
  return {
    name: settings.merchant_name,
    address: settings.merchant_address,
    taxNumber: settings.merchant_tax_number,
    email: settings.merchant_email,
    timeZone: settings.timezone,
    logoUrl: settings.logo_url,
    logo: options.logo !== false && settings.logo_url ? await getLogo() : null,
  };
}

export async function linkKey(): Promise<Buffer> {
  return createHmac("sha256", await sessionSecret())
    .update("billing document links v1")
    .digest();
}

export function hostedInvoicePath(token: string): string {
  return `/invoices/${token}`;
}

/** The hosted invoice page's public URL for transaction `id` (no check that it has an invoice). */
export async function hostedInvoiceUrlFor(id: string, now = Date.now()): Promise<string> {
  const expires = Math.floor(now / 1000) + HOSTED_INVOICE_LINK_LIFETIME_SECONDS;
  return `${config.publicUrl}${hostedInvoicePath(hostedInvoiceToken({ transactionId: id, expires }, await linkKey()))}`;
}

/**
 * A signed link to a document, valid for an hour from `now` (or `lifetimeSeconds`: report links
 * live 3 minutes), on the service's public address (PUBLIC_URL: the same base as the hosted
 * checkout's links).
 */
export async function documentUrl(
  kind: DocumentKind,
  id: string,
  disposition: Disposition,
  now = Date.now(),
  lifetimeSeconds = LINK_LIFETIME_SECONDS,
): Promise<DocumentUrl> {
  const expires = Math.floor(now / 1000) + lifetimeSeconds;
  return { url: `${config.publicUrl}${documentLinkPath({ kind, id, disposition, expires }, await linkKey())}` };
}

/** Checks a received link; returns its disposition, or throws the API error that refuses it. */
export async function checkDocumentLink(kind: DocumentKind, id: string, received: ReceivedLink): Promise<Disposition> {
  const check = verifyDocumentLink(kind, id, received, await linkKey(), Math.floor(Date.now() / 1000));
  if (check.ok) return check.link.disposition;
  if (check.reason === "expired") {
    throw new ApiError("document_link_expired", "This document link has expired: ask the API for a new one.");
  }
  throw new ApiError(
    "document_link_invalid",
    "This document link is not valid: its signature does not match. Use the link exactly as the API returned it.",
  );
}

/**
 * The PDF as a file to answer: downloaded (`attachment`) or shown in the browser (`inline`); a
 * customer's document, so never kept by shared caches (FileResult's default).
 */
export function pdfFile(bytes: Uint8Array, fileName: string, disposition: Disposition): FileResult {
  return new FileResult({ body: bytes, contentType: "application/pdf", size: bytes.byteLength, disposition, fileName });
}

function unavailable(reason: string): ApiError {
  return new ApiError("transaction_invoice_unavailable", reason);
}

/** GET /transactions/{transaction_id}/invoice: a link to the invoice PDF, for a transaction that has one. */
export async function invoiceUrl(transactionId: string, disposition: Disposition) {
  const transaction = (await getTransaction(transactionId)).parse();
  const reason = invoiceUnavailableReason(transaction);
  if (reason) throw unavailable(reason);
  return documentUrl("invoice", transactionId, disposition);
}

/**
 * The invoice PDF of a transaction, generated from the stored transaction and the merchant's
 * current details. Refused (as the link endpoint does) if the transaction no longer has an
 * invoice, e.g. it was canceled after the link was made.
 */
export async function invoicePdf(transactionId: string): Promise<{ bytes: Uint8Array; fileName: string }> {
  // Included address, business and customer are as they were when added (or as revised).
  const raw = await getTransaction(transactionId, ["customer", "address", "business", "discount"]);
  const transaction = raw.parse() as InvoiceTransaction;
  const reason = invoiceUnavailableReason(transaction);
  if (reason) throw unavailable(reason);
  const data = invoiceDataFromTransaction(transaction, await merchantDetails());
  const settings = await getAccountSettings();
  // How to pay, while unpaid: the bank details of the settings and the hosted page as "Pay online"
  // (a canceled transaction has no invoice, so it never gets here). Each PDF made carries a link of
  // its own, valid HOSTED_INVOICE_LINK_LIFETIME_SECONDS from when the PDF is made.
  const howToPay = data.paid
    ? {}
    : {
        bankTransferInstructions: settings.bank_transfer_instructions,
        payOnlineUrl: await hostedInvoiceUrlFor(transactionId),
      };
  return {
    bytes: await renderInvoicePdf({ ...data, ...howToPay }),
    fileName: invoiceFileName(data.invoiceNumber),
  };
}
