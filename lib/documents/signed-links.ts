/**
 * Signed document links: a URL that carries what it opens, how (`disposition`), until when
 * (`expires`, Unix seconds) and an HMAC-SHA256 of those, so the document route needs no API key.
 * As the API family: links are not permanent, they expire after an hour.
 *
 *   {origin}/api/documents/invoices/{transaction_id}?disposition=attachment&expires=1795000000&signature=<hex>
 *
 * The signature covers the kind, the ID, the disposition and the expiry: changing any of them, or
 * reusing a signature for another document, makes the link invalid.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { DISPOSITIONS, type Disposition } from "../schemas/document.ts";

export type { Disposition };

export const LINK_LIFETIME_SECONDS = 60 * 60;

/** Each kind of document, with the path segment of its route under /api/documents/. */
export const DOCUMENT_PATHS = { invoice: "invoices", credit_note: "credit-notes", report: "reports" } as const;

/** Report CSV links (GET /reports/{report_id}/download-url) expire sooner, as the API family's: 3 minutes. */
export const REPORT_LINK_LIFETIME_SECONDS = 3 * 60;
export type DocumentKind = keyof typeof DOCUMENT_PATHS;

export interface DocumentLink {
  kind: DocumentKind;
  id: string;
  disposition: Disposition;
  /** Unix seconds. */
  expires: number;
}

function payload(link: DocumentLink): string {
  return `${link.kind}:${link.id}:${link.disposition}:${link.expires}`;
}

export function signDocumentLink(link: DocumentLink, key: Buffer | string): string {
  return createHmac("sha256", key).update(payload(link)).digest("hex");
}

/** The link's path and query (to put after the service's public origin). */
export function documentLinkPath(link: DocumentLink, key: Buffer | string): string {
  const query = new URLSearchParams({
    disposition: link.disposition,
    expires: String(link.expires),
    signature: signDocumentLink(link, key),
  });
  return `/api/documents/${DOCUMENT_PATHS[link.kind]}/${encodeURIComponent(link.id)}?${query}`;
}

/** What a link's query holds, as received (anything may be missing or malformed). */
export interface ReceivedLink {
  disposition?: string;
  expires?: string;
  signature?: string;
}

export type LinkCheck = { ok: true; link: DocumentLink } | { ok: false; reason: "invalid" | "expired" };

/**
 * Checks a received link for document `kind`/`id` at `nowSeconds`. The signature is checked first
 * (in constant time), so an expired link tells nothing about links that were never issued.
 */
export function verifyDocumentLink(
  kind: DocumentKind,
  id: string,
  received: ReceivedLink,
  key: Buffer | string,
  nowSeconds: number,
): LinkCheck {
  const disposition = received.disposition as Disposition;
  if (!DISPOSITIONS.includes(disposition)) return { ok: false, reason: "invalid" };
  if (!received.expires || !/^\d{1,12}$/.test(received.expires)) return { ok: false, reason: "invalid" };
  if (!received.signature || !/^[0-9a-f]{64}$/.test(received.signature)) return { ok: false, reason: "invalid" };
  const link: DocumentLink = { kind, id, disposition, expires: Number(received.expires) };
  const expected = Buffer.from(signDocumentLink(link, key), "hex");
  if (!timingSafeEqual(expected, Buffer.from(received.signature, "hex"))) return { ok: false, reason: "invalid" };
  if (link.expires <= nowSeconds) return { ok: false, reason: "expired" };
  return { ok: true, link };
}
