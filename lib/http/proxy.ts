/**
 * What proxy.ts (Next.js's request proxy, formerly middleware) does before Next.js routes a request.
 *
 * 1. A path that is not valid percent-encoded UTF-8 (`/api/customers/%ZZ`, `/customers/%ED%A0%80`)
 *    makes Next.js fail while matching it against a dynamic route (its decodeURIComponent throws;
 *    Next then tries to render a /400 page the App Router does not have, and answers a plain-text
 *    500 with no log line). The proxy runs before that matching, so it answers instead: 400
 *    bad_request in the API's error shape under /api and to an API client at the host root
 *    (lib/http/root-api.js, the rule next.config.js's rewrites follow), a small HTML page elsewhere.
 * 2. Strict-Transport-Security on pages when PUBLIC_URL is https: a runtime setting, which the
 *    build-time headers of next.config.js cannot follow. (API responses get it from the route
 *    wrapper.)
 * 3. The Content-Security-Policy of the pages that load Stripe.js (the hosted checkout:
 *    lib/http/csp.js STRIPE_PAGES): the fixed policy with Stripe's origins — or STRIPE_JS_URL's, a
 *    runtime setting — opened for scripts, connections and frames. next.config.js leaves these
 *    pages out of its policy, so each page has exactly one; proxy.ts runs on them whatever the
 *    request carries.
 */
import { NextResponse } from "next/server";
import { ApiError } from "../errors.ts";
import { contentSecurityPolicy, STRIPE_PAGES, stripeOrigins } from "./csp.js";
import { apiErrorResponse, hstsHeader } from "./response.ts";
import { isRootApiRequest } from "./root-api.js";

/** Whether the path decodes: every `%` starts an escape, and the escapes spell UTF-8. */
export function decodablePath(pathname: string): boolean {
  if (!pathname.includes("%")) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

const BAD_PATH_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bad request</title></head>
<body><h1>400: Bad request</h1>
<p>This address is not valid: it has a malformed percent-encoding.</p>
<p><a href="/">Go to the dashboard</a></p></body></html>
`;

export function badPathResponse(pathname: string, headers: Headers = new Headers()): Response {
  if (pathname === "/api" || pathname.startsWith("/api/") || isRootApiRequest(pathname, headers)) {
    return apiErrorResponse(
      new ApiError("bad_request", "The request path is not valid percent-encoded UTF-8: no endpoint has it."),
    );
  }
  return new Response(BAD_PATH_PAGE, { status: 400, headers: { "content-type": "text/html; charset=utf-8" } });
}

/** The policy of a page that loads Stripe.js (STRIPE_PAGES), for the STRIPE_JS_URL of now. */
export function stripePagePolicy(): string {
  return contentSecurityPolicy({
    dev: process.env.NODE_ENV === "development",
    stripe: stripeOrigins(process.env.STRIPE_JS_URL),
  });
}

export function proxy(pathname: string, headers: Headers = new Headers()): Response {
  if (!decodablePath(pathname)) return badPathResponse(pathname, headers);
  const response = NextResponse.next();
  const hsts = hstsHeader();
  if (hsts) response.headers.set("strict-transport-security", hsts);
  if (STRIPE_PAGES.includes(pathname)) response.headers.set("content-security-policy", stripePagePolicy());
  return response;
}
