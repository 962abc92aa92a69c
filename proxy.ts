/**
 * Next.js's proxy (formerly middleware): runs before routing, for the requests `config.matcher`
 * selects. Why it exists and what it does: lib/http/proxy.ts.
 */
import type { NextRequest } from "next/server";
import { proxy as handle } from "@/lib/http/proxy";

export function proxy(request: NextRequest): Response {
  return handle(request.nextUrl.pathname, request.headers);
}

export const config = {
  matcher: [
    // A path with a `%` that does not start an escape (`%ZZ`, a trailing `%`) or with an escape of
    // a byte from 0x80 (non-ASCII, where invalid UTF-8 hides): the only paths that can fail to
    // decode. Narrow on purpose: for a request it runs on, Next.js first copies the body (up to
    // experimental.proxyClientMaxBodySize) for the proxy, so API calls with bodies stay off it.
    "/(.*%(?![0-9A-Fa-f]{2}).*|.*%[89A-Fa-f].*)",
    // The pages that load Stripe.js (lib/http/csp.js STRIPE_PAGES), whatever the request carries:
    // their Content-Security-Policy is set here, never at build time. (A literal: Next.js reads the
    // matcher statically.)
    "/checkout",
    // Pages (not /api, not Next.js's own files) without a body: Strict-Transport-Security.
    {
      source: "/((?!api/|_next/).*)",
      missing: [
        { type: "header", key: "content-length" },
        { type: "header", key: "transfer-encoding" },
      ],
    },
  ],
};
