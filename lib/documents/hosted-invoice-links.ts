/**
 * Hosted invoice links: the public page where a customer sees an issued invoice, downloads it and
 * pays it (app/invoices/[token]).
 *
 *   {PUBLIC_URL}/invoices/{transaction_id}-{expires}-{signature}
 *
 * Decision: an HMAC-signed link with a long expiry, not a token stored on the transaction. The
 * link needs no migration or column, every web process checks it with the shared key, and a link
 * handed out (in an email, by "Copy invoice link") stays valid for LIFETIME even if another one is
 * made later. The signature (HMAC-SHA256 of "hosted_invoice:{id}:{expires}", its own label so it can
 * never stand in for a document or portal signature) makes the link unguessable: the transaction
 * ID alone opens nothing. Changing the session secret voids every link handed out before.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** 180 days: longer than any payment terms plus dunning, so an emailed link still opens when paid late. */
export const HOSTED_INVOICE_LINK_LIFETIME_SECONDS = 180 * 24 * 60 * 60;

const TOKEN = /^(txn_[a-z0-9]{26})-(\d{1,12})-([0-9a-f]{64})$/;

export interface HostedInvoiceLink {
  transactionId: string;
  /** Unix seconds. */
  expires: number;
}

function signature(link: HostedInvoiceLink, key: Buffer | string): string {
  return createHmac("sha256", key).update(`hosted_invoice:${link.transactionId}:${link.expires}`).digest("hex");
}

/** The token (the last path segment) of a link. */
export function hostedInvoiceToken(link: HostedInvoiceLink, key: Buffer | string): string {
  return `${link.transactionId}-${link.expires}-${signature(link, key)}`;
}

export type HostedInvoiceCheck =
  | { ok: true; link: HostedInvoiceLink }
  | { ok: false; reason: "invalid" | "expired"; transactionId?: string };

/** Checks a received token (anything: it comes from the URL) at `nowSeconds`. Signature first, in constant time. */
export function verifyHostedInvoiceToken(token: unknown, key: Buffer | string, nowSeconds: number): HostedInvoiceCheck {
  const [, transactionId, expires, tokenSignature] = (typeof token === "string" ? TOKEN.exec(token) : null) ?? [];
  if (transactionId === undefined || expires === undefined || tokenSignature === undefined) {
    return { ok: false, reason: "invalid" };
  }
  const link = { transactionId, expires: Number(expires) };
  const expected = Buffer.from(signature(link, key), "hex");
  if (!timingSafeEqual(expected, Buffer.from(tokenSignature, "hex"))) return { ok: false, reason: "invalid" };
  if (link.expires <= nowSeconds) return { ok: false, reason: "expired", transactionId: link.transactionId };
  return { ok: true, link };
}
