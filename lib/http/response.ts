/**
 * The API's responses at their lowest level: the headers every response carries and the error
 * shape. Kept free of the database and of authentication, so that proxy.ts (in front of every
 * route) can answer in the same shape.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { config } from "../config.ts";
import { ApiError, fromDatabaseError, fromZodError } from "../errors.ts";

/**
 * Strict-Transport-Security when the server is reached over https (PUBLIC_URL), read at each call:
 * PUBLIC_URL is a runtime setting, while next.config.js headers are fixed at build time.
 */
export function hstsHeader(): string | null {
  return config.publicUrl.startsWith("https://") ? "max-age=31536000" : null;
}

/** Headers on every API response (next.config.js sends them too; these hold without it). */
export function securityHeaders(): Record<string, string> {
  const hsts = hstsHeader();
  return hsts
    ? { "x-content-type-options": "nosniff", "strict-transport-security": hsts }
    : { "x-content-type-options": "nosniff" };
}

export function jsonText(body: string, status: number, requestId: string, extra?: Record<string, string>): Response {
  return new Response(body, {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "x-request-id": requestId,
      ...securityHeaders(),
      ...extra,
    },
  });
}

/**
 * The error shape. `documentation_url` starts with PUBLIC_URL, never with the request's Host or
 * X-Forwarded-Host: those are the caller's to choose, and a link we hand out must be ours.
 */
export function apiErrorResponse(error: unknown, requestId: string = randomUUID()): Response {
  const apiError = toApiError(error, requestId);
  const body = {
    error: {
      // The API family's rule: `api_error` for 5xx (a problem on our side), `request_error` for
      // every 4xx, 429 included (the request is refused for now; nothing is wrong with the API).
      type: apiError.status >= 500 ? "api_error" : "request_error",
      code: apiError.code,
      detail: apiError.detail,
      documentation_url: `${config.publicUrl}/docs/errors/${apiError.code}`,
      ...(apiError.errors ? { errors: apiError.errors } : {}),
    },
    meta: { request_id: requestId },
  };
  return jsonText(JSON.stringify(body), apiError.status, requestId, apiError.headers);
}

/**
 * Maps whatever was thrown to an ApiError. PostgreSQL's unique and foreign-key violations and a
 * database unavailable for the moment are mapped once, here, by fromDatabaseError (lib/errors.ts).
 * Unknown errors are logged and never leak.
 */
export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof z.ZodError) return fromZodError(error);
  const code = (error as { code?: unknown })?.code;
  if (code === "P2025") return new ApiError("not_found", "Nothing with that ID.");
  if (code === "P2002") return new ApiError("conflict", "A unique value is already in use by another entity.");
  const mapped = fromDatabaseError(error);
  if (mapped) {
    // What the operator needs to see (too many clients, a restart), once per refused request.
    if (mapped.status >= 500) console.error(`[${requestId}] database unavailable: ${(error as Error)?.message}`);
    return mapped;
  }
  console.error(`[${requestId}] internal error`, error);
  return new ApiError("internal_error", `An internal error occurred. Quote request ID ${requestId} to support.`);
}
