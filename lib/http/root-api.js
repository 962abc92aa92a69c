/**
 * The API at the host root, beside /api (README, "API notes"). Plain JavaScript because
 * next.config.js imports it (for its rewrites) and lib/http/proxy.ts too (for its own answers), so
 * the rule is written once; lib/http/root-api.d.ts types it, lib/http/root-api.test.ts checks it
 * with Next.js's own matchers.
 *
 * Why: the API family's Python SDK builds every URL as urljoin(base_url, "/customers"), which drops
 * a base URL's path, so pointed at https://host/api it calls https://host/customers. The Node SDK
 * keeps the path. So the API answers at both: a request at the root is rewritten to /api/<path>
 * (next.config.js `rewrites().beforeFiles`: before pages and public files, declaratively, without
 * a proxy and without copying the request's body) when it is an API client's, and never when it is
 * a browser's. Exactly:
 *
 * 1. Its path is not `/` and not under /api/ (already the API), /_next/ (Next.js's files), /js-api/
 *    (the client-side library's endpoints, which take a client-side token as Bearer), /portal/ (the
 *    customer portal and its own endpoints), /exports/, /docs/, /js/ or /demo/ (other handlers and
 *    public files), /webhooks/ (processors' webhooks: POST /webhooks/stripe), nor /logo.
 * 2. It is not one of Next.js's own requests: no `RSC`, `Next-Router-Prefetch` or `Next-Action`
 *    header (client navigations, prefetches and server actions of the dashboard).
 * 3. And either
 *    - it carries `Authorization: Bearer …` (the scheme word in any letter case, any token, so that
 *      a wrong or malformed key gets the API's 401 in JSON rather than a sign-in page). Browsers
 *      never send a Bearer token with a navigation or a subresource; or
 *    - its `Accept` header names application/json first (`application/json`, in any letter case,
 *      alone or with parameters, before any other type). Browsers' navigations send text/html
 *      first, their fetch() and Next.js's RSC requests send the default `*` + `/*`, server actions
 *      text/x-component: none of them is rewritten. A client that asks for JSON gets the API.
 *
 * Everything else at the root (a browser, a link from an email, curl without a key) reaches the
 * dashboard and the public pages as before, and /api/… is untouched.
 */

/** A regular expression source matching `word` in any letter case (`has` values are case-sensitive). */
function anyCase(word) {
  return [...word]
    .map((c) => {
      if (c.toLowerCase() !== c.toUpperCase()) return `[${c.toLowerCase()}${c.toUpperCase()}]`;
      return c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    })
    .join("");
}

/** Path prefixes (first segment) that stay what they are, whatever the request carries. */
const KEPT = ["api", "_next", "js-api", "portal", "exports", "docs", "js", "demo", "webhooks"];

/** The rewrites' `source`: every path but `/`, the KEPT folders and /logo; `:path` is the rest. */
export const ROOT_API_SOURCE = `/:path((?!(?:${KEPT.join("|")})(?:/|$)|logo$).+)`;

/** The path part of ROOT_API_SOURCE as a plain regular expression over a pathname. */
const ROOT_API_PATH = new RegExp(`^/(?!(?:${KEPT.join("|")})(?:/|$)|logo$).+$`);

/** `Authorization: Bearer …`, the scheme word in any case. */
export const BEARER_VALUE = `${anyCase("bearer")}(?:\\s.*)?`;

/** `Accept` naming application/json first, with or without parameters and other types after it. */
export const ACCEPT_JSON_VALUE = `\\s*${anyCase("application/json")}\\s*(?:[;,].*)?`;

/** Next.js's own requests: never rewritten. */
export const NEXT_INTERNAL_HEADERS = ["rsc", "next-router-prefetch", "next-action"];

const missing = NEXT_INTERNAL_HEADERS.map((key) => ({ type: "header", key }));

/** The `rewrites().beforeFiles` entries of next.config.js. */
export const rootApiRewrites = [
  {
    source: ROOT_API_SOURCE,
    has: [{ type: "header", key: "authorization", value: BEARER_VALUE }],
    missing,
    destination: "/api/:path",
  },
  {
    source: ROOT_API_SOURCE,
    has: [{ type: "header", key: "accept", value: ACCEPT_JSON_VALUE }],
    missing,
    destination: "/api/:path",
  },
];

// Next.js anchors a `has` value as ^value$ (prepare-destination.js matchHas): the same here.
const BEARER = new RegExp(`^${BEARER_VALUE}$`);
const ACCEPT_JSON = new RegExp(`^${ACCEPT_JSON_VALUE}$`);

/**
 * Whether a request at `pathname` with `headers` is served by the API at the root: the rule of the
 * rewrites above, for code that sees the request before them (lib/http/proxy.ts).
 * @param {string} pathname
 * @param {{ get(name: string): string | null }} headers
 * @returns {boolean}
 */
export function isRootApiRequest(pathname, headers) {
  if (!ROOT_API_PATH.test(pathname)) return false;
  if (NEXT_INTERNAL_HEADERS.some((name) => headers.get(name) !== null)) return false;
  const authorization = headers.get("authorization");
  if (authorization !== null && BEARER.test(authorization)) return true;
  const accept = headers.get("accept");
  return accept !== null && ACCEPT_JSON.test(accept);
}
