/** The key rules and the client factory of stripe-config.ts (the settings routes test the rest). */
import { afterEach, describe, expect, it } from "vitest";
import {
  keyMode,
  keyPairProblems,
  type StripeSettings,
  secretKeyHint,
  stripeClient,
  stripeUrls,
} from "./stripe-config.ts";

const saved = { ...process.env };
afterEach(() => {
  for (const name of ["STRIPE_API_URL", "STRIPE_JS_URL"]) delete process.env[name];
  Object.assign(process.env, saved);
});

describe("keys", () => {
  it("carry their mode, and show only their kind, mode and last 4", () => {
    expect(keyMode("sk_test_abc")).toBe("test");
    expect(keyMode("rk_live_abc")).toBe("live");
    expect(keyMode("pk_live_abc")).toBe("live");
    expect(keyMode("whsec_abc")).toBeNull();
    expect(secretKeyHint("sk_live_51Habcdefghijklmnop1234")).toBe("sk_live_…1234");
    expect(secretKeyHint("rk_test_abcdefgh9876")).toBe("rk_test_…9876");
  });

  it("test keys in the sandbox, live keys in live, never a mixed pair", () => {
    expect(keyPairProblems("sk_test_a", "pk_test_a", "sandbox")).toEqual([]);
    expect(keyPairProblems("rk_test_a", "pk_test_a", "sandbox")).toEqual([]);
    expect(keyPairProblems("sk_live_a", "pk_live_a", "live")).toEqual([]);
    expect(keyPairProblems("sk_live_a", "pk_live_a", "sandbox").map((p) => p.field)).toEqual([
      "secret_key",
      "publishable_key",
    ]);
    expect(keyPairProblems("sk_test_a", "pk_test_a", "live").map((p) => p.field)).toEqual([
      "secret_key",
      "publishable_key",
    ]);
    expect(keyPairProblems("sk_live_a", "pk_test_a", "live").map((p) => p.field)).toEqual(["publishable_key"]);
    expect(keyPairProblems("sk_test_a", "pk_live_a", "sandbox").map((p) => p.field)).toEqual(["publishable_key"]);
  });
});

describe("STRIPE_API_URL and STRIPE_JS_URL", () => {
  it("default to Stripe's own", () => {
    delete process.env.STRIPE_API_URL;
    delete process.env.STRIPE_JS_URL;
    expect(stripeUrls()).toEqual({
      apiUrl: "https://api.stripe.com",
      jsUrl: "https://js.stripe.com/v3/",
      problem: null,
    });
  });

  it("take an origin for the API (a trailing slash is fine) and any http(s) URL for Stripe.js", () => {
    process.env.STRIPE_API_URL = "http://127.0.0.1:12111/";
    process.env.STRIPE_JS_URL = "http://127.0.0.1:12111/v3/";
    expect(stripeUrls()).toEqual({
      apiUrl: "http://127.0.0.1:12111",
      jsUrl: "http://127.0.0.1:12111/v3/",
      problem: null,
    });
    process.env.STRIPE_API_URL = "https://proxy.example/stripe";
    expect(stripeUrls().problem).toMatch(/must be an http\(s\) origin/);
    process.env.STRIPE_API_URL = "not a url";
    expect(stripeUrls().problem).toMatch(/is not a URL/);
  });
});

describe("stripeClient", () => {
  const settings = (version: string, apiUrl = "http://127.0.0.1:12111"): StripeSettings => ({
    source: "settings",
    secretKey: "sk_test_abcdefgh",
    publishableKey: "pk_test_abcdefgh",
    webhookSecret: null,
    mode: "test",
    apiUrl,
    jsUrl: "https://js.stripe.com/v3/",
    version,
  });

  it("is one instance per settings version, pointed at STRIPE_API_URL", () => {
    const a = stripeClient(settings("v1"));
    expect(stripeClient(settings("v1"))).toBe(a);
    const b = stripeClient(settings("v2", "https://api.stripe.com"));
    expect(b).not.toBe(a);
    expect(b.getApiField("host")).toBe("api.stripe.com");
    expect(b.getApiField("protocol")).toBe("https");
    expect(String(b.getApiField("port"))).toBe("443");
    const c = stripeClient(settings("v3"));
    expect(c.getApiField("host")).toBe("127.0.0.1");
    expect(c.getApiField("protocol")).toBe("http");
    expect(String(c.getApiField("port"))).toBe("12111");
  });
});
