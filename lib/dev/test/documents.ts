/**
 * The signed document links (invoice and credit-note PDFs) in integration tests: opening a link
 * with its document route's handler, and the checks every kind of link shares.
 */
import { expect } from "vitest";
import type { DocumentKind } from "../../documents/signed-links.ts";
import { documentUrl } from "../../services/documents.ts";
import { type ApiResult, BASE, call, type Handler, testKey } from "./api.ts";

export interface OpenedDocument {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  /** The JSON error body; null when the answer is a PDF. */
  body: any;
}

export type OpenDocument = (url: string, headers?: Record<string, string>) => Promise<OpenedDocument>;

/**
 * A caller of a link endpoint (GET `{path(id)}{queryText}`, the ID in the route parameter `param`):
 * with a key holding only `permission` unless `key` is given (null: no key at all).
 */
export function documentLinkCaller(handler: Handler, param: string, permission: string, path: (id: string) => string) {
  return async (id: string, queryText = "", key?: string | null): Promise<ApiResult> =>
    call(handler, "GET", `${path(id)}${queryText}`, {
      key: key === undefined ? await testKey([permission]) : key,
      params: { [param]: id },
    });
}

/**
 * Opens document URLs with the document route's handler (its ID parameter named `param`), as a
 * browser would (no API key).
 */
export function documentOpener(handler: Handler, param: string): OpenDocument {
  return async (url, headers = {}) => {
    const parsed = new URL(url);
    const id = decodeURIComponent(parsed.pathname.split("/").at(-1) ?? "");
    const request = new Request(`${BASE}${parsed.pathname.replace(/^\/api/, "")}${parsed.search}`, { headers });
    const response = await handler(request, { params: Promise.resolve({ [param]: id }) });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const isPdf = response.headers.get("content-type") === "application/pdf";
    return {
      status: response.status,
      headers: response.headers,
      bytes,
      body: isPdf ? null : JSON.parse(Buffer.from(bytes).toString()),
    };
  };
}

/**
 * Checks the answer of a link endpoint: 200 with only a `url`, on `pathname`, for an attachment,
 * expiring an hour after `before` (Unix seconds, taken before the call). Returns the URL.
 */
export function expectSignedLink(res: ApiResult, pathname: string, before: number): URL {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body.data)).toEqual(["url"]);
  const url = new URL(res.body.data.url);
  expect(url.pathname).toBe(pathname);
  expect(url.searchParams.get("disposition")).toBe("attachment");
  const expires = Number(url.searchParams.get("expires"));
  expect(expires - before).toBeGreaterThanOrEqual(3600);
  expect(expires - before).toBeLessThanOrEqual(3602);
  return url;
}

/** Checks that an opened link served a private, uncached PDF under `contentDisposition`. */
export function expectPdf(doc: OpenedDocument, contentDisposition: string): void {
  expect(doc.status).toBe(200);
  expect(doc.headers.get("content-type")).toBe("application/pdf");
  expect(doc.headers.get("content-disposition")).toBe(contentDisposition);
  expect(doc.headers.get("cache-control")).toBe("private, no-store");
}

/** A copy of a signed link with the signature's last hex digit changed. */
export function withTamperedSignature(url: URL): URL {
  const tampered = new URL(url);
  const signature = tampered.searchParams.get("signature") ?? "";
  tampered.searchParams.set("signature", `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`);
  return tampered;
}

/** Checks that a link to the document made more than an hour ago is refused with 410 document_link_expired. */
export async function expectExpiredLinkRefused(open: OpenDocument, kind: DocumentKind, id: string): Promise<void> {
  const { url } = await documentUrl(kind, id, "attachment", Date.now() - 3_601_000);
  const res = await open(url);
  expect(res.status).toBe(410);
  expect(res.body.error.code).toBe("document_link_expired");
}
