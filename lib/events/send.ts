/**
 * One signed POST of a JSON body to a destination: what both notification deliveries and
 * simulation runs send. Never throws: a network error, a timeout or a refused address is an
 * outcome with `error` set and no status code.
 */
import { config } from "../config.ts";
import { destinationAddressProblem } from "./destination.ts";
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

export async function sendSigned(
  url: string,
  secret: string,
  body: string,
  options: { timeoutMs?: number; now?: Date } = {},
): Promise<SendOutcome> {
  const attemptedAt = options.now ?? new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = await destinationAddressProblem(url);
  if (problem) {
    return {
      ok: false,
      statusCode: null,
      contentType: null,
      body: null,
      durationMs: 0,
      error: `Destination ${problem}.`,
      attemptedAt,
    };
  }
  const timeoutMs = options.timeoutMs ?? config.webhooks.timeoutMs;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "billing-service-webhooks/1",
        [SIGNATURE_HEADER]: signatureHeader(secret, body, new Date()),
      },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const limit = config.webhooks.responseBodyLimit;
    return {
      ok: response.status >= 200 && response.status < 300,
      statusCode: response.status,
      contentType: response.headers.get("content-type"),
      body: text.length > limit ? text.slice(0, limit) : text,
      durationMs: elapsed(),
      error: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`,
      attemptedAt,
    };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    const timedOut = e.name === "TimeoutError" || e.name === "AbortError";
    const message = timedOut
      ? `Timed out after ${timeoutMs} ms.`
      : (e.cause?.code ?? e.cause?.message ?? e.message ?? "Request failed.");
    return {
      ok: false,
      statusCode: null,
      contentType: null,
      body: null,
      durationMs: elapsed(),
      error: message,
      attemptedAt,
    };
  }
}
