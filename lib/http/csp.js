/**
 * The pages' Content-Security-Policy, written once. Plain JavaScript because next.config.js imports
 * it (the build-time policy of every page) and lib/http/proxy.ts too (the checkout's, per request);
 * lib/http/csp.d.ts types it.
 *
 * `frame-ancestors 'none'` (with X-Frame-Options for older browsers): no other site may frame the
 * card form or the dashboard. Next.js renders inline <script> tags (the RSC payload and bootstrap,
 * different on every page), so scripts need 'unsafe-inline' unless every page carried a per-request
 * nonce; React adds inline style attributes, hence 'unsafe-inline' for styles. `next dev` also
 * evaluates code.
 *
 * Stripe (issue 21 §3). The hosted checkout loads Stripe.js, which calls Stripe's API and frames
 * its Payment Element and 3-D Secure pages: only that page's policy opens Stripe's origins, as
 * Stripe's security guide lists them (docs.stripe.com/security/guide, "Content Security Policy"):
 * script-src https://js.stripe.com https://*.js.stripe.com; connect-src https://api.stripe.com;
 * frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com. When
 * STRIPE_JS_URL points elsewhere (the tests' local stand-in), that URL's origin instead, for all
 * three. STRIPE_JS_URL is read at run time, so the checkout's policy is made per request (proxy.ts);
 * every other page keeps the fixed policy without them.
 */

export const STRIPE_ORIGINS = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  connect: ["https://api.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
};

/** The origins Stripe.js needs, for STRIPE_JS_URL (`jsUrl`; Stripe's own when unset or unparsable). */
export function stripeOrigins(jsUrl) {
  const text = (jsUrl ?? "").trim();
  if (text === "") return STRIPE_ORIGINS;
  let origin;
  try {
    const url = new URL(text);
    if (url.protocol !== "https:" && url.protocol !== "http:") return STRIPE_ORIGINS;
    origin = url.origin;
  } catch {
    return STRIPE_ORIGINS;
  }
  if (origin === "https://js.stripe.com") return STRIPE_ORIGINS;
  return { script: [origin], connect: [origin], frame: [origin] };
}

/**
 * The policy: `dev` adds 'unsafe-eval' (next dev); `stripe` (from stripeOrigins) opens Stripe's
 * origins for scripts, connections and frames — for the checkout only.
 */
export function contentSecurityPolicy({ dev = false, stripe = null } = {}) {
  const extra = (list) => (list && list.length > 0 ? ` ${list.join(" ")}` : "");
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}${extra(stripe?.script)}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${extra(stripe?.connect)}`,
    ...(stripe ? [`frame-src 'self'${extra(stripe.frame)}`] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The pages whose policy opens Stripe (set per request by proxy.ts, left out of next.config.js's). */
export const STRIPE_PAGES = ["/checkout"];
