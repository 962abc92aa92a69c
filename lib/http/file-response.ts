/** The HTTP responses of the non-JSON answers of lib/http/results.ts. */
import type { FileResult, RedirectResult } from "./results.ts";

export function fileResponse({ file }: FileResult): Response {
  const headers = new Headers({
    "content-type": file.contentType,
    "cache-control": file.cacheControl ?? "private, no-store",
    "x-content-type-options": "nosniff",
    ...file.headers,
  });
  if (file.size !== undefined) headers.set("content-length", String(file.size));
  if (file.disposition) headers.set("content-disposition", `${file.disposition}; filename="${file.fileName}"`);
  const body = file.body instanceof Uint8Array ? Buffer.from(file.body) : file.body;
  return new Response(body, { status: 200, headers });
}

export function redirectResponse(redirect: RedirectResult): Response {
  const headers = new Headers(redirect.headers);
  headers.set("location", redirect.location);
  return new Response(null, { status: 303, headers });
}

/** A plain-text 404, uncached: for a public file route that has nothing to serve. */
export function notFoundText(body: string): Response {
  return new Response(body, {
    status: 404,
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
