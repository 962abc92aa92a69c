/**
 * Approved checkout domains on the client-side library's endpoints (lib/services/checkout-origins.ts):
 * with none, any page may use a token (as before); with some, only their pages, this server's own
 * and loopback ones. Through the real handlers, with the Origin a browser sends.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as domainItem from "@/app/api/checkout-domains/[checkout_domain_id]/route";
import * as domains from "@/app/api/checkout-domains/route";
import { query } from "@/lib/db/sql";
import { type ApiResult, call, expectError } from "@/lib/dev/test/api";
import { admin } from "@/lib/dev/test/resource";
import { makePrice } from "@/lib/dev/test/transactions";
import { createClientToken } from "@/lib/services/client-tokens";
import * as checkout from "./checkout/route";
import * as pricing from "./pricing-preview/route";

type Handler = (request: Request) => Promise<Response>;

async function send(handler: Handler, path: string, token: string, body: unknown, origin?: string | null) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  if (origin !== null && origin !== undefined) headers.origin = origin;
  const response = await handler(
    new Request(`http://localhost:3000/js-api/${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers } as ApiResult;
}

async function addDomain(domain: string): Promise<string> {
  const res = await call(domains.POST as never, "POST", "/checkout-domains", { key: await admin(), body: { domain } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function deleteDomain(id: string): Promise<void> {
  const res = await call(domainItem.DELETE as never, "DELETE", `/checkout-domains/${id}`, {
    key: await admin(),
    params: { checkout_domain_id: id },
  });
  expect(res.status).toBe(204);
}

afterEach(async () => {
  vi.unstubAllEnvs();
  await query("DELETE FROM checkout_domains");
});

async function setup() {
  const token = (await createClientToken({ name: "Shop" })).parse().token;
  const price = await makePrice();
  const preview = { items: [{ price_id: price.id, quantity: 1 }] };
  const open = {
    items: [{ price_id: price.id, quantity: 1 }],
    customer: { email: `origin-${Date.now()}@example.com` },
    address: { country_code: "US", postal_code: "10001" },
  };
  return { token, preview, open };
}

describe("approved checkout domains on /js-api", () => {
  it("with none, any page (and a request with no Origin) may use a token, as before", async () => {
    const { token, preview, open } = await setup();
    for (const origin of ["https://anything.example", null, "null"]) {
      expect((await send(pricing.POST, "pricing-preview", token, preview, origin)).status).toBe(200);
    }
    expect((await send(checkout.POST, "checkout", token, open, "https://anything.example")).status).toBe(201);
  });

  it("with some, pages of an approved domain may; others get 403 forbidden with CORS, and nothing is written", async () => {
    const { token, preview, open } = await setup();
    const id = await addDomain("shop.example.com");
    expect((await send(pricing.POST, "pricing-preview", token, preview, "https://shop.example.com")).status).toBe(200);
    // Scheme and port are not compared: the host is what was approved.
    expect((await send(pricing.POST, "pricing-preview", token, preview, "http://shop.example.com:8080")).status).toBe(
      200,
    );
    const opened = await send(checkout.POST, "checkout", token, open, "https://SHOP.example.com");
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);

    const { n: before } = (await query<{ n: number }>("SELECT count(*)::int AS n FROM transactions"))[0]!;
    for (const origin of [
      "https://evil.example",
      "https://www.shop.example.com",
      "https://example.com",
      "https://shop.example.com.evil.example",
      "null",
      "not a url",
      "file:///tmp/page.html",
    ]) {
      for (const [handler, path, body] of [
        [pricing.POST, "pricing-preview", preview],
        [checkout.POST, "checkout", { ...open, customer: { email: `x-${Date.now()}@example.com` } }],
      ] as const) {
        const res = await send(handler, path, token, body, origin);
        const error = expectError(res, 403, "forbidden");
        expect(error.detail.length).toBeGreaterThan(0);
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
      }
    }
    const missing = expectError(await send(pricing.POST, "pricing-preview", token, preview, null), 403, "forbidden");
    expect(missing.detail).toContain("Origin");
    const { n: after } = (await query<{ n: number }>("SELECT count(*)::int AS n FROM transactions"))[0]!;
    expect(after).toBe(before);

    // Deleting the last domain opens the library to every page again, at once.
    await deleteDomain(id);
    expect((await send(pricing.POST, "pricing-preview", token, preview, "https://evil.example")).status).toBe(200);
  });

  it("the refusal names the page's host and where to approve it", async () => {
    const { token, preview } = await setup();
    await addDomain("shop.example.com");
    const error = expectError(
      await send(pricing.POST, "pricing-preview", token, preview, "https://other.example"),
      403,
      "forbidden",
    );
    expect(error.detail).toContain("other.example");
    expect(error.detail).toContain("Checkout domains");
    // The approved domains are not given away.
    expect(error.detail).not.toContain("shop.example.com");
  });

  it("this server's own pages (PUBLIC_URL) and loopback pages are always allowed", async () => {
    const { token, preview } = await setup();
    await addDomain("shop.example.com");
    vi.stubEnv("PUBLIC_URL", "https://billing.example.org");
    for (const origin of [
      "https://billing.example.org",
      "http://localhost:5173",
      "http://127.0.0.1:8080",
      "http://[::1]:3000",
    ]) {
      expect((await send(pricing.POST, "pricing-preview", token, preview, origin)).status, origin).toBe(200);
    }
    // Only PUBLIC_URL's exact origin: another port or scheme of its host is not ours.
    expectError(
      await send(pricing.POST, "pricing-preview", token, preview, "http://billing.example.org"),
      403,
      "forbidden",
    );
  });

  it("a domain that is not approved (status set by another process) does not open the library", async () => {
    const { token, preview } = await setup();
    const approved = await addDomain("shop.example.com");
    const other = await addDomain("rejected.example.com");
    await query("UPDATE checkout_domains SET status = 'rejected' WHERE id = $1", [other]);
    expectError(
      await send(pricing.POST, "pricing-preview", token, preview, "https://rejected.example.com"),
      403,
      "forbidden",
    );
    // Only rejected domains left: the list of approved domains is empty, every page may.
    await deleteDomain(approved);
    expect((await send(pricing.POST, "pricing-preview", token, preview, "https://evil.example")).status).toBe(200);
  });

  it("the token is checked first: a bad token is 403 invalid_client_token whatever the origin", async () => {
    await addDomain("shop.example.com");
    const res = await send(
      pricing.POST,
      "pricing-preview",
      "test_000000000000000000000000000",
      {},
      "https://x.example",
    );
    expectError(res, 403, "invalid_client_token");
  });
});
