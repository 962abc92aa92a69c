/**
 * The API at the host root (lib/http/root-api.js): next.config.js's rewrites, evaluated with
 * Next.js's own matchers (path-to-regexp as Next compiles a `source`, matchHas for `has`/`missing`),
 * over the requests browsers, Next.js itself and the API family's SDKs send; and the proxy's copy of
 * the rule (isRootApiRequest) agreeing with them. The same calls over HTTP: e2e/api/root-api.spec.ts.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { badPathResponse } from "./proxy.ts";
import { isRootApiRequest, rootApiRewrites } from "./root-api.js";

const require = createRequire(import.meta.url);
const { getPathMatch } = require("next/dist/shared/lib/router/utils/path-match.js") as {
  getPathMatch: (
    path: string,
    options: { removeUnnamedParams?: boolean; strict?: boolean },
  ) => (pathname: string) => Record<string, string> | false;
};
const { matchHas } = require("next/dist/shared/lib/router/utils/prepare-destination.js") as {
  matchHas: (
    req: { headers: Record<string, string> },
    query: Record<string, string>,
    has?: unknown[],
    missing?: unknown[],
  ) => Record<string, string> | false;
};

/** Where Next.js sends the request: the rewritten path, or null when no rewrite applies. */
function rewritten(pathname: string, headers: Record<string, string>): string | null {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  for (const rule of rootApiRewrites) {
    const params = getPathMatch(rule.source, { removeUnnamedParams: true, strict: true })(pathname);
    if (!params) continue;
    if (!matchHas({ headers: lower }, {}, rule.has, rule.missing)) continue;
    return rule.destination.replace(":path", params.path!);
  }
  return null;
}

const KEY = "svc_apikey_sdbx_01abc_secret";
const BROWSER_NAVIGATION = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "sec-fetch-mode": "navigate",
};

describe("the root API rewrites", () => {
  it("are next.config.js's beforeFiles rewrites", async () => {
    // next.config.js is untyped JavaScript: imported by URL.
    const config = (await import(new URL("../../next.config.js", import.meta.url).href)).default as {
      rewrites: () => Promise<{ beforeFiles: unknown[] }>;
    };
    const rewrites = await config.rewrites();
    expect(rewrites.beforeFiles).toBe(rootApiRewrites);
  });

  it.each<[string, string, Record<string, string>, string | null]>([
    // API clients: the family's SDKs and anything sending a Bearer token or asking for JSON.
    ["Python SDK", "/customers", { authorization: `Bearer ${KEY}`, accept: "*/*" }, "/api/customers"],
    [
      "Node SDK",
      "/customers",
      { authorization: `bearer ${KEY}`, "content-type": "application/json" },
      "/api/customers",
    ],
    ["scheme in capitals", "/customers", { authorization: `BEARER ${KEY}` }, "/api/customers"],
    [
      "a nested path",
      "/customers/ctm_01/addresses",
      { authorization: `Bearer ${KEY}` },
      "/api/customers/ctm_01/addresses",
    ],
    ["a bad key", "/customers", { authorization: "Bearer nonsense" }, "/api/customers"],
    ["no token after the scheme", "/customers", { authorization: "Bearer" }, "/api/customers"],
    ["Accept JSON", "/event-types", { accept: "application/json" }, "/api/event-types"],
    ["Accept JSON with parameters", "/ips", { accept: "Application/JSON; charset=utf-8" }, "/api/ips"],
    ["Accept JSON first of several", "/ips", { accept: "application/json, text/plain, */*" }, "/api/ips"],
    [
      "the family's path for checkout domains",
      "/checkout-domains",
      { authorization: `Bearer ${KEY}` },
      "/api/checkout-domains",
    ],
    // Browsers and Next.js's own requests: never.
    ["a browser's navigation", "/customers", BROWSER_NAVIGATION, null],
    ["fetch() without headers", "/customers", { accept: "*/*" }, null],
    ["JSON asked after HTML", "/customers", { accept: "text/html, application/json" }, null],
    ["application/jsonp is not JSON", "/customers", { accept: "application/jsonp" }, null],
    ["an RSC request", "/customers", { rsc: "1", accept: "*/*" }, null],
    ["an RSC request with a token", "/customers", { rsc: "1", authorization: `Bearer ${KEY}` }, null],
    ["a prefetch", "/customers", { "next-router-prefetch": "1", accept: "application/json" }, null],
    ["a server action", "/settings", { "next-action": "abc", accept: "text/x-component" }, null],
    ["HTTP Basic credentials", "/customers", { authorization: "Basic dXNlcjpwYXNz" }, null],
    ["a session cookie alone", "/customers", { cookie: "next-auth.session-token=x", accept: "*/*" }, null],
    // Paths that stay what they are.
    ["/api itself", "/api/customers", { authorization: `Bearer ${KEY}` }, null],
    ["Next.js's files", "/_next/static/chunks/a.js", { authorization: `Bearer ${KEY}` }, null],
    ["the client-side library", "/js-api/checkout", { authorization: "Bearer test_0123456789abcdef0123456789a" }, null],
    ["the library's script", "/js/billing.js", { accept: "application/json" }, null],
    ["the portal's endpoints", "/portal/api/invoices/txn_01", { accept: "application/json" }, null],
    ["CSV exports", "/exports/customers.csv", { authorization: `Bearer ${KEY}` }, null],
    ["the API reference", "/docs/api", { accept: "application/json" }, null],
    ["the logo", "/logo", { authorization: `Bearer ${KEY}` }, null],
    ["the demo page", "/demo/embed.html", { accept: "application/json" }, null],
    ["Stripe's webhooks", "/webhooks/stripe", { accept: "application/json", "stripe-signature": "t=1,v1=x" }, null],
    ["the home page", "/", { authorization: `Bearer ${KEY}` }, null],
  ])("%s: %s", (_name, pathname, headers, expected) => {
    expect(rewritten(pathname, headers)).toBe(expected);
    expect(isRootApiRequest(pathname, new Headers(headers))).toBe(expected !== null);
  });

  it("keeps paths that only begin like a kept folder", () => {
    expect(rewritten("/apis", { accept: "application/json" })).toBe("/api/apis");
    expect(rewritten("/logos", { accept: "application/json" })).toBe("/api/logos");
    expect(rewritten("/documents/x", { authorization: `Bearer ${KEY}` })).toBe("/api/documents/x");
  });
});

describe("a path that does not decode, at the root", () => {
  it("answers an API client in the API's error shape", async () => {
    const response = badPathResponse("/customers/%ZZ", new Headers({ authorization: `Bearer ${KEY}` }));
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("bad_request");
  });

  it("answers a browser with the HTML page", () => {
    const response = badPathResponse("/customers/%ZZ", new Headers(BROWSER_NAVIGATION));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  });
});
