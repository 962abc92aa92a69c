/**
 * One signed POST of a JSON body to a destination: what both notification deliveries and
 * simulation runs send. Never throws: a network error, a timeout or a refused address is an
 * outcome with `error` set and no status code.
 *
 * node:http(s) rather than fetch: the request must go to the addresses that were checked
 * (lib/events/destination.ts), so the socket's lookup is replaced by one that answers those,
 * while the URL keeps the host name, so that the Host header and the TLS server name (SNI and
 * certificate check) stay the destination's own. Redirects are not followed.
 */

import type { LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { config } from "../config.ts";
import { resolveDestination } from "./destination.ts";
import { SIGNATURE_HEADER, signatureHeader } from "./signature.ts";

export interface SendOutcome {
  /** True for a 2xx answer. */
  ok: boolean;
  statusCode: number | null;
  contentType: string | null;
  /** The response body, cut to config.webhooks.responseBodyLimit characters. */
  body: string | null;
  durationMs: number;
  error: string | null;
  attemptedAt: Date;
}

/**
 * Connections are kept alive between deliveries to the same host; an idle one is closed after 4 s,
 * before the usual server keep-alive of 5 s, so that a reused socket is rarely one the server has
 * just closed. A kept socket stays connected to an address that was checked when it was opened.
 */
const IDLE_MS = 4_000;
const agents = {
  "http:": new http.Agent({ keepAlive: true, timeout: IDLE_MS }),
  "https:": new https.Agent({ keepAlive: true, timeout: IDLE_MS }),
};

/** A lookup that answers only `addresses` (those checked), whatever it is asked. */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = family ? addresses.filter((entry) => entry.family === family) : [...addresses];
    const [first] = usable;
    if (first === undefined) {
      const error = Object.assign(new Error(`no IPv${family} address was checked for this host`), {
        code: "ENOTFOUND",
      });
      callback(error, "", 0);
      return;
    }
    if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, usable);
    else callback(null, first.address, first.family);
  };
}

interface Answer {
  status: number;
  contentType: string | null;
  body: string;
}

function post(
  url: URL,
  addresses: readonly LookupAddress[] | null,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<Answer> {
  const limit = config.webhooks.responseBodyLimit;
  // UTF-8 takes at most 4 bytes a character: no more is read than the log keeps.
  const maxBytes = limit * 4;
  return new Promise<Answer>((resolve, reject) => {
    const request = (url.protocol === "https:" ? https : http).request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        agent: agents[url.protocol as keyof typeof agents],
        lookup: addresses ? pinnedLookup(addresses) : undefined,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const settle = (error?: unknown) => {
          if (settled) return;
          settled = true;
          if (error !== undefined) return reject(error);
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({
            status: response.statusCode ?? 0,
            contentType: response.headers["content-type"] ?? null,
            body: text.length > limit ? text.slice(0, limit) : text,
          });
        };
        response.on("data", (chunk: Buffer) => {
          if (size >= maxBytes) return;
          chunks.push(chunk);
          size += chunk.length;
          // Enough kept: the rest is not waited for (the socket is not reused).
          if (size >= maxBytes) {
            settle();
            response.destroy();
          }
        });
        response.on("end", () => settle());
        response.on("error", (error) => settle(error));
        // Closed before its end: the timeout aborted it, or the connection dropped.
        response.on("close", () =>
          settle(signal.aborted ? signal.reason : new Error("The connection closed before the answer ended.")),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

export async function sendSigned(
  url: string,
  secret: string,
  body: string,
  options: { timeoutMs?: number; now?: Date } = {},
): Promise<SendOutcome> {
  const attemptedAt = options.now ?? new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, durationMs: number): SendOutcome => ({
    ok: false,
    statusCode: null,
    contentType: null,
    body: null,
    durationMs,
    error,
    attemptedAt,
  });
  const destination = await resolveDestination(url);
  if ("problem" in destination) return failed(`Destination ${destination.problem}.`, 0);
  const timeoutMs = options.timeoutMs ?? config.webhooks.timeoutMs;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const answer = await post(
      destination.url,
      destination.addresses,
      {
        "content-type": "application/json",
        "user-agent": "billing-service-webhooks/1",
        [SIGNATURE_HEADER]: signatureHeader(secret, body, new Date()),
      },
      body,
      signal,
    );
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      ok,
      statusCode: answer.status,
      contentType: answer.contentType,
      body: answer.body,
      durationMs: elapsed(),
      error: ok ? null : `HTTP ${answer.status}`,
      attemptedAt,
    };
  } catch (error) {
    if (signal.aborted) return failed(`Timed out after ${timeoutMs} ms.`, elapsed());
    const e = error as Error & { code?: string };
    return failed(e.code ?? e.message ?? "Request failed.", elapsed());
  }
}
