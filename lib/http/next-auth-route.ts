/**
 * The wrapper around next-auth's route handler (/api/auth/*): next-auth answers 500 to several
 * kinds of junk (a GET on the credentials callback, a callbackUrl that is not an http(s) URL in the
 * query, the body or its cookie, a malformed JSON body), so the request is checked here first.
 *
 * - A refusal on an endpoint whose answer is a page (GET signin, signout, error, verify-request)
 *   redirects to the sign-in page with `?error=`, as next-auth does for its own errors; elsewhere it
 *   is a 4xx in the API's error shape.
 * - The body is read here, with the API's size limit and UTF-8 check, and handed on.
 * - Anything next-auth still fails with is logged with a request ID and answered in the API's shape.
 */
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import NextAuth, { type AuthOptions } from "next-auth";
import { config } from "../config.ts";
import { ApiError, invalidField } from "../errors.ts";
import { decodeUtf8, readBodyBytes } from "./body.ts";
import { apiErrorResponse, securityHeaders } from "./response.ts";

type Context = { params: Promise<{ nextauth?: string[] }> };

/** next-auth's actions and the methods it serves each with (next-auth/core/index.js). */
const ACTIONS: Record<string, readonly string[]> = {
  providers: ["GET"],
  session: ["GET", "POST"],
  csrf: ["GET"],
  signin: ["GET", "POST"],
  signout: ["GET", "POST"],
  callback: ["GET", "POST"],
  "verify-request": ["GET"],
  error: ["GET"],
  _log: ["POST"],
};

/** Where next-auth answers a GET with a page (or a redirect to one) rather than JSON. */
const PAGE_ACTIONS = new Set(["signin", "signout", "error", "verify-request"]);

const CALLBACK_COOKIES = ["next-auth.callback-url", "__Secure-next-auth.callback-url"] as const;

/**
 * A callback URL next-auth can use: a path on this site or an absolute http(s) URL (next-auth's
 * own check, which it fails with a 500; its redirect callback then throws on what does not parse).
 */
export function validCallbackUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const url = value.startsWith("/") ? new URL(value, config.publicUrl) : new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The cookie's values, decoded as Next.js decodes them for next-auth (undecodable ones skipped). */
function cookieValues(request: Request, names: readonly string[]): string[] {
  const header = request.headers.get("cookie");
  if (!header) return [];
  const values: string[] = [];
  for (const pair of header.split(/; */)) {
    const eq = pair.indexOf("=");
    if (eq === -1 || !names.includes(pair.slice(0, eq))) continue;
    try {
      values.push(decodeURIComponent(pair.slice(eq + 1)));
    } catch {
      // Next.js leaves such a cookie out: next-auth never sees it.
    }
  }
  return values;
}

/** A request refused before next-auth sees it. */
class Refusal {
  constructor(
    readonly error: ApiError,
    /** For a refusal on a page endpoint: the sign-in page's `?error=` (else the API's error shape). */
    readonly pageError?: string,
    /** Whether to clear the callback-url cookie that caused it. */
    readonly clearCallbackCookie = false,
  ) {}
}

function invalidCallbackUrl(field: string, clearCallbackCookie = false): Refusal {
  return new Refusal(
    invalidField(field, "must be a path on this site or an http(s) URL"),
    "InvalidCallbackUrl",
    clearCallbackCookie,
  );
}

/** Reads and checks a POST body; returns its bytes to hand on. */
async function checkedBody(request: Request): Promise<Uint8Array> {
  const bytes = await readBodyBytes(request, config.maxBodyBytes);
  const text = decodeUtf8(bytes);
  // The same test as next-auth's, which then parses the body with req.json() (a 500 when it fails).
  const type = request.headers.get("content-type") ?? "";
  let fields: Record<string, unknown> = {};
  if (type.includes("application/json")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Refusal(new ApiError("bad_request", "Request body is not valid JSON."));
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new Refusal(new ApiError("bad_request", "Request body must be a JSON object."));
    }
    fields = value as Record<string, unknown>;
  } else if (type.includes("application/x-www-form-urlencoded")) {
    fields = Object.fromEntries(new URLSearchParams(text));
  }
  if (fields.callbackUrl !== undefined && fields.callbackUrl !== "" && !validCallbackUrl(fields.callbackUrl)) {
    throw invalidCallbackUrl("callbackUrl");
  }
  return bytes;
}

async function check(request: NextRequest, action: string, providerId: string | undefined): Promise<void> {
  const methods = ACTIONS[action];
  if (!methods) throw new Refusal(new ApiError("not_found", `No endpoint ${request.method} /api/auth/${action}.`));
  if (!methods.includes(request.method)) {
    throw new Refusal(
      new ApiError("method_not_allowed", `${request.method} is not allowed on this path.`, {
        headers: { allow: methods.join(", ") },
      }),
    );
  }
  if (action === "callback") {
    if (providerId !== "credentials") {
      throw new Refusal(new ApiError("not_found", `No sign-in provider ${providerId ?? ""}.`));
    }
    // Email and password come in a POST; next-auth answers a GET here with a 500.
    if (request.method !== "POST") {
      throw new Refusal(
        new ApiError("method_not_allowed", `${request.method} is not allowed on this path.`, {
          headers: { allow: "POST" },
        }),
      );
    }
  }
  const query = request.nextUrl.searchParams.get("callbackUrl");
  if (query && !validCallbackUrl(query)) throw invalidCallbackUrl("callbackUrl");
  // A bad callback-url cookie would fail every request until it expires: refuse it and clear it.
  for (const value of cookieValues(request, CALLBACK_COOKIES)) {
    if (value && !validCallbackUrl(value)) throw invalidCallbackUrl(CALLBACK_COOKIES[0], true);
  }
}

function refusalResponse(refusal: Refusal, request: NextRequest, action: string, requestId: string): Response {
  const response =
    refusal.pageError && request.method === "GET" && PAGE_ACTIONS.has(action)
      ? new Response(null, {
          status: 302,
          headers: { location: `/sign-in?error=${encodeURIComponent(refusal.pageError)}`, ...securityHeaders() },
        })
      : apiErrorResponse(refusal.error, requestId);
  if (refusal.clearCallbackCookie) {
    for (const name of CALLBACK_COOKIES) {
      const secure = name.startsWith("__Secure-") ? "; Secure" : "";
      response.headers.append("set-cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
    }
  }
  return response;
}

export function nextAuthRoute(options: AuthOptions) {
  const handler = NextAuth(options) as (request: NextRequest, context: Context) => Promise<Response>;
  return async function handle(request: NextRequest, context: Context): Promise<Response> {
    const requestId = randomUUID();
    const [action = "", providerId] = (await context.params).nextauth ?? [];
    try {
      await check(request, action, providerId);
      let forwarded = request;
      if (request.method === "POST") {
        const body = await checkedBody(request);
        forwarded = new NextRequest(request.url, {
          method: "POST",
          headers: request.headers,
          body: body as Uint8Array<ArrayBuffer>,
        });
      }
      const response = await handler(forwarded, context);
      if (response.status >= 500) {
        console.error(`[${requestId}] next-auth answered ${response.status}: ${await response.text()}`);
        return apiErrorResponse(
          new ApiError("internal_error", `An internal error occurred. Quote request ID ${requestId} to support.`),
          requestId,
        );
      }
      // A copy: the headers of next-auth's response may be immutable.
      const out = new Response(response.body, response);
      for (const [name, value] of Object.entries(securityHeaders())) out.headers.set(name, value);
      return out;
    } catch (error) {
      if (error instanceof Refusal) return refusalResponse(error, request, action, requestId);
      // Outside a Next.js server (a test calling the handler directly) next-auth cannot run at all:
      // no request's fault, and never the case under next start.
      if (/outside a request scope/.test(String(error))) throw error;
      return apiErrorResponse(error, requestId);
    }
  };
}
