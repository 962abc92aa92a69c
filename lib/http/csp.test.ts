/**
 * The pages' Content-Security-Policy (lib/http/csp.js): the fixed policy next.config.js sends to
 * every page but the checkout, evaluated with Next.js's own path matcher; the checkout's, made per
 * request by the proxy, opening Stripe's origins (or STRIPE_JS_URL's) for scripts, connections and
 * frames and nothing else. In Chromium: e2e/ui/security-headers.spec.ts.
 */
import { createRequire } from "node:module";
import { afterEach, describe, expect, it, vi } from "vitest";
import { contentSecurityPolicy, STRIPE_ORIGINS, stripeOrigins } from "./csp.js";
import { proxy } from "./proxy.ts";

const require = createRequire(import.meta.url);
const { getPathMatch } = require("next/dist/shared/lib/router/utils/path-match.js") as {
  getPathMatch: (path: string, options: { removeUnnamedParams?: boolean; strict?: boolean }) => (p: string) => unknown;
};

afterEach(() => {
  vi.unstubAllEnvs();
});

const directives = (policy: string) =>
  Object.fromEntries(
    policy.split("; ").map((d) => {
      const [name, ...values] = d.split(" ");
      return [name, values];
    }),
  );

/** The Content-Security-Policy values next.config.js sends for `pathname`. */
async function configPolicies(pathname: string): Promise<string[]> {
  // Plain JavaScript without types: imported by a path the type checker does not follow.
  const configPath = "../../next.config.js";
  const nextConfig = (await import(configPath)).default;
  const rules = await (
    nextConfig as { headers: () => Promise<{ source: string; headers: { key: string; value: string }[] }[]> }
  ).headers();
  return rules
    .filter((rule) => getPathMatch(rule.source, { removeUnnamedParams: true, strict: true })(pathname))
    .flatMap((rule) => rule.headers.filter((h) => h.key === "Content-Security-Policy").map((h) => h.value));
}

describe("the fixed policy", () => {
  it("opens nothing outside our origin", () => {
    const policy = directives(contentSecurityPolicy());
    expect(policy["script-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy["connect-src"]).toEqual(["'self'"]);
    expect(policy["frame-src"]).toBeUndefined();
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    expect(contentSecurityPolicy()).not.toContain("stripe");
  });

  it("next.config.js sends it to every page but the checkout, exactly once; never to the API", async () => {
    for (const page of [
      "/",
      "/customers",
      "/sign-in",
      "/portal/overview",
      "/invoices/abc",
      "/checkouts",
      "/checkout/x",
    ]) {
      expect(await configPolicies(page), page).toEqual([contentSecurityPolicy()]);
    }
    expect(await configPolicies("/checkout")).toEqual([]);
    expect(await configPolicies("/api/customers")).toEqual([]);
  });
});

describe("the checkout's policy (proxy)", () => {
  it("Stripe's own origins by default, for scripts, connections and frames only", () => {
    vi.stubEnv("STRIPE_JS_URL", "");
    const policy = directives(proxy("/checkout").headers.get("content-security-policy") as string);
    expect(policy["script-src"]).toEqual(["'self'", "'unsafe-inline'", ...STRIPE_ORIGINS.script]);
    expect(policy["connect-src"]).toEqual(["'self'", "https://api.stripe.com"]);
    expect(policy["frame-src"]).toEqual([
      "'self'",
      "https://js.stripe.com",
      "https://*.js.stripe.com",
      "https://hooks.stripe.com",
    ]);
    expect(policy["default-src"]).toEqual(["'self'"]);
    expect(policy["img-src"]).toEqual(["'self'", "data:", "blob:"]);
    expect(policy["frame-ancestors"]).toEqual(["'none'"]);
    expect(policy["form-action"]).toEqual(["'self'"]);
  });

  it("STRIPE_JS_URL's origin instead when set (the tests' stand-in), read per request", () => {
    vi.stubEnv("STRIPE_JS_URL", "http://127.0.0.1:5400/v3/");
    const policy = directives(proxy("/checkout").headers.get("content-security-policy") as string);
    for (const name of ["script-src", "connect-src", "frame-src"]) {
      expect(policy[name], name).toContain("http://127.0.0.1:5400");
      expect(policy[name].join(" "), name).not.toContain("stripe.com");
    }
    vi.stubEnv("STRIPE_JS_URL", "http://127.0.0.1:6500/v3/");
    expect(proxy("/checkout").headers.get("content-security-policy")).toContain("http://127.0.0.1:6500");
  });

  it("other pages get no policy from the proxy (next.config.js's fixed one holds)", () => {
    vi.stubEnv("STRIPE_JS_URL", "http://127.0.0.1:5400/v3/");
    for (const page of ["/", "/customers", "/portal/overview", "/checkouts"]) {
      expect(proxy(page).headers.get("content-security-policy"), page).toBeNull();
    }
  });

  it("a STRIPE_JS_URL that is not an http(s) URL opens nothing of its own", () => {
    expect(stripeOrigins("javascript:alert(1)")).toEqual(STRIPE_ORIGINS);
    expect(stripeOrigins("not a url")).toEqual(STRIPE_ORIGINS);
    expect(stripeOrigins("https://js.stripe.com/v3/")).toEqual(STRIPE_ORIGINS);
    expect(stripeOrigins("https://stand-in.example:8443/v3/").script).toEqual(["https://stand-in.example:8443"]);
  });
});
