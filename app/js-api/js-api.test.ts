/**
 * The client-side library's endpoints (app/js-api), through the real handlers on a real database:
 * client-side tokens only, CORS, rate limits, the pricing preview and opening a checkout.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as checkoutPayments from "@/app/api/checkout/[transaction_id]/payments/route";
import * as taxRate from "@/app/api/tax-rates/[country_code]/route";
import { query } from "@/lib/db/sql";
import { type ApiResult, call, expectError, expectFieldError, testKey } from "@/lib/dev/test/api";
import { admin } from "@/lib/dev/test/resource";
import { makeBuyer, makeCustomer, makePrice, makeProduct, transactions } from "@/lib/dev/test/transactions";
import { WINDOW_MS } from "@/lib/http/rate-limit";
import { jsCheckoutSchema } from "@/lib/schemas/client-token";
import { createClientToken, updateClientToken } from "@/lib/services/client-tokens";
import * as checkout from "./checkout/route";
import * as pricing from "./pricing-preview/route";

type Handler = (request: Request) => Promise<Response>;

async function send(
  handler: Handler,
  path: string,
  options: {
    token?: string | null;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    method?: string;
  },
): Promise<ApiResult> {
  const headers: Record<string, string> = { origin: "https://shop.example.com", ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await handler(
    new Request(`http://localhost:3000/js-api/${path}`, { method: options.method ?? "POST", headers, body }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

async function newToken(): Promise<string> {
  return (await createClientToken({ name: "Test page" })).parse().token;
}

function expectCors(res: ApiResult): void {
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  expect(res.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
}

/** A EUR price with a German override, tax mode `location` (inclusive in DE, exclusive in US). */
async function localizedPrice() {
  const product = await makeProduct({ name: "Pro plan" });
  return makePrice({
    product_id: product.id,
    description: "Pro",
    tax_mode: "location",
    unit_price: { amount: "1000", currency_code: "USD" },
    unit_price_overrides: [{ country_codes: ["DE"], unit_price: { amount: "1190", currency_code: "EUR" } }],
  });
}

afterEach(() => {
  process.env.BILLING_RATE_LIMIT = "off";
  process.env.BILLING_RATE_LIMIT_PREVIEW = "off";
});

describe("authentication: a client-side token and nothing else", () => {
  it("no token, a malformed, unknown, revoked or live token, an API key: 403 invalid_client_token, with CORS", async () => {
    const revoked = (await createClientToken({ name: "Revoked" })).parse();
    await updateClientToken(revoked.id, { status: "revoked" });
    const apiKey = await testKey();
    const body = { items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }] };
    const cases: (string | null)[] = [
      null,
      "test_",
      "test_0000000000000000000000000000",
      "test_000000000000000000000000000",
      `live_${revoked.token.slice(5)}`,
      revoked.token,
      apiKey,
      "a\u00e9b",
    ];
    for (const token of cases) {
      for (const [handler, path] of [
        [pricing.POST, "pricing-preview"],
        [checkout.POST, "checkout"],
      ] as const) {
        const res = await send(handler, path, { token, body });
        const error = expectError(res, 403, "invalid_client_token");
        expect(error.type).toBe("request_error");
        expectCors(res);
      }
    }
    const basic = await send(pricing.POST, "pricing-preview", { body, headers: { authorization: "Basic abc" } });
    expectError(basic, 403, "invalid_client_token");
    // A dashboard cookie is never read.
    const cookie = await send(pricing.POST, "pricing-preview", {
      body,
      headers: { cookie: "next-auth.session-token=x" },
    });
    expectError(cookie, 403, "invalid_client_token");
  });

  it("a token stops working as soon as it is revoked", async () => {
    const made = (await createClientToken({ name: "Soon revoked" })).parse();
    const price = await localizedPrice();
    const body = { items: [{ price_id: price.id, quantity: 1 }] };
    expect((await send(pricing.POST, "pricing-preview", { token: made.token, body })).status).toBe(200);
    await updateClientToken(made.id, { status: "revoked" });
    expectError(await send(pricing.POST, "pricing-preview", { token: made.token, body }), 403, "invalid_client_token");
  });

  it("preflight: 204 with the CORS headers; other methods 405", async () => {
    for (const route of [pricing, checkout]) {
      const res = await route.OPTIONS();
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toContain("POST");
      expect(res.headers.get("access-control-allow-headers")).toContain("Authorization");
      for (const method of ["GET", "PUT", "PATCH", "DELETE"] as const) {
        const other = await send(route[method], "x", { method, token: await newToken() });
        expectError(other, 405, "method_not_allowed");
        expectCors(other);
      }
    }
  });
});

describe("POST /js-api/pricing-preview", () => {
  it("prices for the buyer's country: the German override with VAT included; US with tax on top", async () => {
    await call(taxRate.PUT, "PUT", "/tax-rates/US", {
      key: await admin(),
      params: { country_code: "US" },
      body: { rate: "0.1" },
    });
    const token = await newToken();
    const price = await localizedPrice();
    const items = [{ price_id: price.id, quantity: 1 }];

    const de = await send(pricing.POST, "pricing-preview", { token, body: { items, address: { country_code: "DE" } } });
    expect(de.status, JSON.stringify(de.body)).toBe(200);
    expectCors(de);
    expect(de.body.data.currency_code).toBe("EUR");
    const deLine = de.body.data.details.line_items[0];
    expect(deLine.totals).toEqual({ subtotal: "1000", discount: "0", tax: "190", total: "1190" });
    expect(deLine.formatted_totals.total).toBe("€11.90");
    expect(deLine.product.name).toBe("Pro plan");

    const us = await send(pricing.POST, "pricing-preview", {
      token,
      body: { items, address: { country_code: "US", postal_code: "10001" } },
    });
    expect(us.body.data.currency_code).toBe("USD");
    expect(us.body.data.details.line_items[0].formatted_totals.total).toBe("$11.00");

    const none = await send(pricing.POST, "pricing-preview", { token, body: { items } });
    expect(none.body.data.details.line_items[0].totals.total).toBe("1000");
  });

  it("refuses what a public page may not send, and bad input, with field errors", async () => {
    const token = await newToken();
    const price = await localizedPrice();
    const items = [{ price_id: price.id, quantity: 1 }];
    const customer = await makeCustomer();
    const post = (body: unknown) => send(pricing.POST, "pricing-preview", { token, body });
    expectFieldError(await post({ items, customer_id: customer.id }), "customer_id");
    expectFieldError(await post({ items, discount_id: "dsc_00000000000000000000000000" }), "discount_id");
    expectFieldError(await post({ items, address_id: "add_00000000000000000000000000" }), "address_id");
    expectFieldError(await post({ items: [] }), "items");
    expectFieldError(await post({}), "items");
    expectFieldError(
      await post({ items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }] }),
      "items[0].price_id",
    );
    expectFieldError(await post({ items: [{ price_id: price.id, quantity: 0 }] }), "items[0].quantity");
    expectFieldError(await post({ items, address: { country_code: "ZZ" } }), "address.country_code");
    expectFieldError(await post({ items, currency_code: "XXX" }), "currency_code");
    expectFieldError(await post({ items, currency_code: "JPY" }), "items[0].price_id");
    expectFieldError(
      await post({ items, address: { country_code: "DE", postal_code: "a\u0000" } }),
      "address.postal_code",
    );
    const raw = await send(pricing.POST, "pricing-preview", {
      token,
      rawBody: "[1,2",
      headers: { "content-type": "application/json" },
    });
    expectError(raw, 400, "bad_request");
    expectCors(raw);
    const text = await send(pricing.POST, "pricing-preview", {
      token,
      rawBody: JSON.stringify({ items }),
      headers: { "content-type": "text/plain" },
    });
    expectError(text, 400, "bad_request");
  });

  it("hostile input never yields a 5xx", async () => {
    const token = await newToken();
    const values: unknown[] = [
      null,
      true,
      -1,
      1e308,
      "",
      "x".repeat(100_000),
      "\udc00",
      "a\u0000b",
      [],
      {},
      [[[[[]]]]],
    ];
    for (const value of values) {
      for (const body of [
        { items: value },
        { items: [value] },
        { items: [{ price_id: value, quantity: 1 }] },
        { items: [{ price_id: "pri_00000000000000000000000000", quantity: value }] },
        { items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }], address: value },
        { items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }], currency_code: value },
        { items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }], [String(value).slice(0, 20)]: 1 },
      ]) {
        for (const [handler, path] of [
          [pricing.POST, "pricing-preview"],
          [checkout.POST, "checkout"],
        ] as const) {
          const res = await send(handler, path, {
            token,
            body: { ...body, customer: { email: value }, address: value },
          });
          expect(res.status, `${path} ${JSON.stringify(body).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(typeof res.body.error.code).toBe("string");
        }
      }
    }
  });

  it("rate limited with the API's limiter: the preview budget, 429 with Retry-After and CORS", async () => {
    process.env.BILLING_RATE_LIMIT_PREVIEW = "3";
    const left = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const token = await newToken();
    const from = "198.51.100.201";
    const body = { items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }] };
    for (let i = 0; i < 3; i++) {
      const res = await send(pricing.POST, "pricing-preview", { token, body, headers: { "x-forwarded-for": from } });
      expect(res.status).toBe(400);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
    }
    const refused = await send(pricing.POST, "pricing-preview", { token, body, headers: { "x-forwarded-for": from } });
    expectError(refused, 429, "too_many_requests");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expectCors(refused);
  });
});

describe("POST /js-api/checkout", () => {
  it("success_url (the library's successUrl): kept for the checkout's success page; https or loopback http only", async () => {
    const token = await newToken();
    const price = await makePrice();
    const body = (success_url: unknown) => ({
      items: [{ price_id: price.id, quantity: 1 }],
      customer: { email: `ret-${Date.now()}@example.com` },
      address: { country_code: "US", postal_code: "10001" },
      success_url,
    });
    const res = await send(checkout.POST, "checkout", { token, body: body("https://shop.example.com/thanks") });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] = await query<{ checkout_success_url: string }>(
      "SELECT checkout_success_url FROM transactions WHERE id = $1",
      [res.body.data.transaction_id],
    );
    expect(row!.checkout_success_url).toBe("https://shop.example.com/thanks");
    expect((await send(checkout.POST, "checkout", { token, body: body("http://localhost:8080/ok") })).status).toBe(201);
    for (const bad of ["http://shop.example.com/thanks", "javascript:alert(1)", "not a url", 5]) {
      expectFieldError(await send(checkout.POST, "checkout", { token, body: body(bad) }), "success_url");
    }
  });

  it("creates a ready automatic transaction for a new customer by email and returns its checkout URL; it can be paid", async () => {
    const token = await newToken();
    const price = await localizedPrice();
    const email = `buyer-${Date.now()}@example.com`;
    const res = await send(checkout.POST, "checkout", {
      token,
      body: {
        items: [{ price_id: price.id, quantity: 2 }],
        customer: { email },
        address: { country_code: "DE", postal_code: "10115" },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectCors(res);
    const data = jsCheckoutSchema.strict().parse(res.body.data);
    expect(data.status).toBe("ready");
    expect(data.checkout.url).toBe(`${new URL(data.checkout.url).origin}/checkout?_ptxn=${data.transaction_id}`);

    const txn = (await transactions.get(data.transaction_id)).body.data;
    expect(txn).toMatchObject({ status: "ready", collection_mode: "automatic", currency_code: "EUR" });
    expect(txn.details.totals.total).toBe("2380");
    const [customer] = await query<{ id: string; email: string }>("SELECT id, email FROM customers WHERE id = $1", [
      txn.customer_id,
    ]);
    expect(customer!.email).toBe(email);

    // The same buyer again: the same customer and address, a new transaction.
    const again = await send(checkout.POST, "checkout", {
      token,
      body: {
        items: [{ price_id: price.id, quantity: 1 }],
        customer: { email: email.toUpperCase() },
        address: { country_code: "DE", postal_code: "10115" },
      },
    });
    expect(again.status).toBe(201);
    const second = (await transactions.get(again.body.data.transaction_id)).body.data;
    expect(second.customer_id).toBe(txn.customer_id);
    expect(second.address_id).toBe(txn.address_id);
    expect(second.id).not.toBe(txn.id);

    const paid = await call(checkoutPayments.POST, "POST", `/checkout/${txn.id}/payments`, {
      params: { transaction_id: txn.id },
      body: { cardholder_name: "Ada", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBeLessThan(300);
    expect((await transactions.get(txn.id)).body.data.status).toBe("completed");
  });

  it("an existing customer by ID, with an address in the US", async () => {
    const token = await newToken();
    const price = await localizedPrice();
    const { customer, address } = await makeBuyer("US");
    const res = await send(checkout.POST, "checkout", {
      token,
      body: {
        items: [{ price_id: price.id, quantity: 1 }],
        customer: { id: customer.id },
        address: { country_code: "US", postal_code: "10001" },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const txn = (await transactions.get(res.body.data.transaction_id)).body.data;
    expect(txn.customer_id).toBe(customer.id);
    expect(txn.address_id).toBe(address.id);
    expect(txn.currency_code).toBe("USD");
  });

  it("refuses bad requests with field errors and writes nothing", async () => {
    const token = await newToken();
    const price = await localizedPrice();
    const items = [{ price_id: price.id, quantity: 1 }];
    const count = async () =>
      (
        await query<{ n: number }>(
          "SELECT (SELECT count(*) FROM customers) + (SELECT count(*) FROM transactions) + (SELECT count(*) FROM addresses) AS n",
        )
      )[0]!.n;
    const before = await count();
    const post = (body: unknown) => send(checkout.POST, "checkout", { token, body });
    const email = "nobody-yet@example.com";
    const address = { country_code: "DE", postal_code: "10115" };
    expectFieldError(await post({ items, address }), "customer");
    expectFieldError(await post({ items, customer: {}, address }), "customer");
    expectFieldError(
      await post({ items, customer: { email, id: "ctm_00000000000000000000000000" }, address }),
      "customer",
    );
    expectFieldError(await post({ items, customer: { email: "not-an-email" }, address }), "customer.email");
    expectFieldError(await post({ items, customer: { id: "ctm_00000000000000000000000000" }, address }), "customer.id");
    expectFieldError(await post({ items, customer: { email } }), "address");
    expectFieldError(
      await post({ items, customer: { email }, address: { country_code: "US" } }),
      "address.postal_code",
    );
    expectFieldError(
      await post({
        items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }],
        customer: { email },
        address,
      }),
      "items[0].price_id",
    );
    expectFieldError(await post({ items, customer: { email }, address, currency_code: "JPY" }), "items[0].price_id");
    expectFieldError(await post({ items, customer: { email }, address, custom_data: { a: 1 } }), "custom_data");
    expectFieldError(await post({ items, customer: { email }, address, collection_mode: "manual" }), "collection_mode");
    expect(await count()).toBe(before);
    // Refused by the transaction's own rules (prices of two billing cycles), after the customer and
    // address were written in the same database transaction: rolled back with it.
    const product = await makeProduct({ name: "Cycles" });
    const cycle = (interval: string) =>
      makePrice({
        product_id: product.id,
        description: interval,
        unit_price: { amount: "1000", currency_code: "USD" },
        billing_cycle: { interval, frequency: 1 },
      });
    const mixed = [
      { price_id: (await cycle("month")).id, quantity: 1 },
      { price_id: (await cycle("year")).id, quantity: 1 },
    ];
    const before2 = await count();
    const refused = await post({
      items: mixed,
      customer: { email },
      address: { country_code: "US", postal_code: "10001" },
    });
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(await count()).toBe(before2);
  });
});
