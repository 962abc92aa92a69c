/**
 * What a service answers when the answer is not a JSON entity: a file, or a redirect. Services
 * return these as plain data (bytes, content type, file name, …); route() (lib/http/route.ts), or
 * fileResponse for a route outside it, makes the HTTP response.
 */
import type { Disposition } from "../schemas/document.ts";

export interface FileContent {
  body: Uint8Array | ReadableStream<Uint8Array>;
  contentType: string;
  /** Its size in bytes (Content-Length), when known before streaming it. */
  size?: number | string;
  /** Downloaded (`attachment`) or shown in the browser (`inline`), under `fileName`. */
  disposition?: Disposition;
  fileName?: string;
  /** Cache-Control: `private, no-store` unless given (a customer's document). */
  cacheControl?: string;
  /** Any other response header the file needs (an ETag, a Content-Security-Policy). */
  headers?: Record<string, string>;
}

export class FileResult {
  constructor(readonly file: FileContent) {}
}

/** A 303 See Other to `location`, with headers of its own (a cookie it sets). */
export class RedirectResult {
  constructor(
    readonly location: string,
    readonly headers: Record<string, string> = {},
  ) {}
}
