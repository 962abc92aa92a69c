/**
 * The wrapper of the client-side library's endpoints (app/js-api/**): what lib/http/route.ts is for
 * the API, for requests that a merchant's web page sends from the buyer's browser with a
 * client-side token.
 *
 * - Only a client-side token authenticates (`Authorization: Bearer test_…`): no API key, no
 *   dashboard session (cookies are never read). A missing, malformed, unknown, revoked or
 *   other-environment token is 403 invalid_client_token, as in the API family.
 * - CORS for any origin: the token is public and no cookie is used, so `*` (without credentials)
 *   is right; the token, not the origin, is what identifies the merchant. Every answer carries the
 *   CORS headers, errors and 429s included, so that the page's script can read them.
 * - Rate limits: the API's own limiter (lib/http/rate-limit.ts) per client address: the pricing
 *   preview counts against the preview budget, the rest against the API budget.
 * - Bodies are read and checked as the API's are (size, UTF-8, JSON object, zod, hostile input),
 *   and answered in the same envelope and error shape.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { ApiError, fromZodError } from "../errors.ts";
import { toJsonText } from "../json.ts";
import { findActiveClientToken } from "../services/client-tokens.ts";
import { guardInput } from "./input-guard.ts";
import { checkRateLimit, rateLimitError, withRateLimitHeaders } from "./rate-limit.ts";
import { apiErrorResponse, jsonText } from "./response.ts";
import { readBody } from "./route.ts";

export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, Service-Version",
  "Access-Control-Expose-Headers": "X-Request-Id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset",
  "Access-Control-Max-Age": "600",
};

const BEARER = /^bearer\s+(\S+)\s*$/i;

function invalidClientToken(detail: string): ApiError {
  return new ApiError("invalid_client_token", detail);
}

/** The ID of the active client-side token the request carries; 403 invalid_client_token otherwise. */
export async function authenticateClientToken(request: Request): Promise<string> {
  const header = request.headers.get("authorization");
  if (header === null) {
    throw invalidClientToken("Client-side token is missing. Send `Authorization: Bearer <client-side token>`.");
  }
  const token = BEARER.exec(header)?.[1];
  const found = token === undefined ? null : await findActiveClientToken(token);
  if (!found) throw invalidClientToken("Invalid, revoked or expired client-side token.");
  return found.id;
}

function withCors(response: Response): Response {
  try {
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(CORS_HEADERS)) copy.headers.set(name, value);
    return copy;
  }
}

export interface ClientRouteContext<B> {
  input: { body: B };
  clientTokenId: string;
  request: Request;
  requestId: string;
}

/** A POST endpoint of the client-side library: `export const POST = clientRoute({ body }, handler)`. */
export function clientRoute<S extends z.ZodType>(
  options: { body: S; status?: 200 | 201 },
  handler: (ctx: ClientRouteContext<z.output<S>>) => Promise<unknown>,
) {
  return async function handle(request: Request): Promise<Response> {
    const requestId = randomUUID();
    const limit = await checkRateLimit(request);
    if (limit && !limit.decision.allowed) return withCors(apiErrorResponse(rateLimitError(limit), requestId));
    let response: Response;
    try {
      const clientTokenId = await authenticateClientToken(request);
      const raw = await readBody(request);
      guardInput(raw);
      const parsed = options.body.safeParse(raw);
      if (!parsed.success) throw fromZodError(parsed.error);
      const result = await handler({ input: { body: parsed.data }, clientTokenId, request, requestId });
      const meta = `{"request_id":${JSON.stringify(requestId)}}`;
      response = jsonText(`{"data":${toJsonText(result)},"meta":${meta}}`, options.status ?? 200, requestId);
    } catch (error) {
      response = apiErrorResponse(error, requestId);
    }
    return withCors(withRateLimitHeaders(response, limit));
  };
}

/** The CORS preflight of the library's endpoints: 204 with the CORS headers. */
export async function clientPreflight(): Promise<Response> {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}

/** For the methods the library's endpoints do not have: 405 in the API's error shape, with CORS. */
export async function clientMethodNotAllowed(request: Request): Promise<Response> {
  return withCors(
    apiErrorResponse(new ApiError("method_not_allowed", `${request.method} is not allowed on this path.`)),
  );
}
