/** Payment links (ours): the API through the real route handlers, and opening a link, on a real database. */
import { describe, expect, it } from "vitest";
import * as open from "@/app/api/checkout/payment-links/[payment_link_id]/route";
import { query } from "@/lib/db/sql";
import { TEST_CARD } from "@/lib/dev/test/adjustments";
import { call, expectError, expectFieldError, expectNotFound } from "@/lib/dev/test/api";
import { events, expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { ids, resource } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { makeRecurringPrice } from "@/lib/dev/test/subscriptions";
import { archivePrice, makePrice, makeProduct, transactions } from "@/lib/dev/test/transactions";
import { paymentLinkSchema } from "@/lib/schemas/payment-link";
import { getCheckout, payAtCheckout } from "@/lib/services/payments/checkout";
import * as item from "./[payment_link_id]/route";
import * as collection from "./route";

const api = resource("/payment-links", "payment_link_id", collection, item);
const FIELDS = [
  "id",
  "status",
  "url",
  "items",
  "success_url",
  "reusable",
  "transaction_id",
  "created_at",
  "updated_at",
];

async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const price = body.items ? null : await makePrice();
  const res = await api.create({ items: [{ price_id: price?.id, quantity: 1 }], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

function openLink(id: string, body: unknown) {
  return call(open.POST as never, "POST", `/checkout/payment-links/${id}`, {
    key: null,
    body,
    params: { payment_link_id: id },
  });
}

const BUYER = { email: "link-buyer@example.com", address: { country_code: "US", postal_code: "10001" } };

describe("POST /payment-links", () => {
  it("creates an active, reusable link: 201, our shape, a public /pay URL, no event", async () => {
    const price = await makePrice();
    const res = await api.create({ items: [{ price_id: price.id, quantity: 2 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const link = res.body.data;
    expect(Object.keys(link)).toEqual(FIELDS);
    expect(paymentLinkSchema.strict().parse(link)).toBeTruthy();
    expect(link.id).toMatch(/^plink_[a-z0-9]{26}$/);
    expect(link).toMatchObject({
      status: "active",
      items: [{ price_id: price.id, quantity: 2 }],
      success_url: null,
      reusable: true,
      transaction_id: null,
    });
    expect(link.url).toMatch(new RegExp(`/pay/${link.id}$`));
    expect(await events(link.id)).toHaveLength(0);
  });

  it("success_url: https, or http on localhost/127.0.0.1 only, else a field error", async () => {
    for (const url of ["https://shop.example.com/thanks?order=1", "http://localhost:3000/done", "http://127.0.0.1/x"]) {
      expect((await createOk({ success_url: url })).success_url).toBe(url);
    }
    const price = await makePrice();
    const items = [{ price_id: price.id, quantity: 1 }];
    for (const url of [
      "http://shop.example.com/thanks",
      "javascript:alert(1)",
      "data:text/html,hi",
      "/relative",
      "ftp://example.com",
      "https://user:pass@example.com/",
      `https://example.com/${"x".repeat(2000)}`,
      "",
      42,
    ]) {
      const error = expectFieldError(await api.create({ items, success_url: url }), "success_url");
      expect(error.errors?.[0]?.message).toBeTruthy();
    }
  });

  it("checks the items: known, active prices, one billing cycle, 1 to 100 items, sane quantities", async () => {
    expectFieldError(await api.create({ items: [] }), "items");
    expectFieldError(await api.create({}), "items");
    expectFieldError(await api.create({ items: "pri_x" }), "items");
    expectFieldError(
      await api.create({ items: [{ price_id: "pri_00000000000000000000000000", quantity: 1 }] }),
      "items[0].price_id",
    );
    expectFieldError(await api.create({ items: [{ price_id: "nope", quantity: 1 }] }), "items[0].price_id");
    const price = await makePrice();
    expectFieldError(await api.create({ items: [{ price_id: price.id, quantity: 0 }] }), "items[0].quantity");
    expectFieldError(await api.create({ items: [{ price_id: price.id, quantity: 1.5 }] }), "items[0].quantity");
    expectFieldError(await api.create({ items: [{ price_id: price.id }] }), "items[0].quantity");
    expectFieldError(await api.create({ items: [{ price_id: price.id, quantity: 1 }], reusable: "yes" }), "reusable");
    expectFieldError(await api.create({ items: [{ price_id: price.id, quantity: 1 }], url: "x" }), "url");
    const many = Array.from({ length: 101 }, () => ({ price_id: price.id, quantity: 1 }));
    expectFieldError(await api.create({ items: many }), "items");
    const archived = await makePrice();
    await archivePrice(archived.id);
    const refused = await api.create({ items: [{ price_id: archived.id, quantity: 1 }] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("items[0].price_id");
    const monthly = await makeRecurringPrice();
    const yearly = await makeRecurringPrice({ billing_cycle: { interval: "year", frequency: 1 } });
    expectFieldError(
      await api.create({
        items: [
          { price_id: monthly.id, quantity: 1 },
          { price_id: yearly.id, quantity: 1 },
        ],
      }),
      "items[1].price_id",
    );
  });

  it("hostile input is a 4xx, never a 5xx", async () => {
    for (const body of [
      { items: [{ price_id: "pri_\u0000", quantity: 1 }] },
      { items: [{ price_id: "x".repeat(100_000), quantity: 1 }] },
      { items: [{ price_id: { $ne: 1 }, quantity: 1 }] },
      { items: [null] },
      { items: [{ price_id: "pri_00000000000000000000000000", quantity: 1e308 }] },
    ]) {
      const res = await api.create(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("needs payment_link.write (403); 401 without a key; a viewer may read but not write", async () => {
    const price = await makePrice();
    const body = { items: [{ price_id: price.id, quantity: 1 }] };
    await expectPermission((key) => api.create(body, key), {
      permission: "payment_link.write",
      denied: [["payment_link.read"], permissionsWithout("payment_link.")],
      status: 201,
    });
    expectError(await api.create(body, null), 401, "invalid_token");
    const viewer = await staffSession("viewer");
    expect((await call(collection.GET as never, "GET", "/payment-links", { headers: viewer.headers })).status).toBe(
      200,
    );
    expectError(
      await call(collection.POST as never, "POST", "/payment-links", { headers: viewer.headers, body }),
      403,
      "forbidden",
    );
    const adminStaff = await staffSession("admin");
    expect(
      (await call(collection.POST as never, "POST", "/payment-links", { headers: adminStaff.headers, body })).status,
    ).toBe(201);
  });
});

describe("GET /payment-links/{id} and PATCH", () => {
  it("gets a link; 404 for an unknown or malformed ID; needs payment_link.read", async () => {
    const made = await createOk();
    expect((await api.get(made.id)).body.data).toEqual(made);
    expectNotFound(await api.get("plink_00000000000000000000000000"), "plink_00000000000000000000000000");
    expectNotFound(await api.get("nonsense"));
    await expectPermission((key) => api.get(made.id, "", key), {
      permission: "payment_link.read",
      denied: [permissionsWithout("payment_link.")],
      allowed: [["payment_link.read"], ["payment_link.write"]],
    });
  });

  it("archives and reactivates; changes success_url; refuses empty or bad bodies", async () => {
    const made = await createOk();
    const archived = await api.update(made.id, { status: "archived" });
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ id: made.id, status: "archived" });
    expect(
      (await api.update(made.id, { status: "active", success_url: "https://x.example/ok" })).body.data,
    ).toMatchObject({ status: "active", success_url: "https://x.example/ok" });
    expect((await api.update(made.id, { success_url: null })).body.data.success_url).toBeNull();
    expectFieldError(await api.update(made.id, {}), "status");
    expectFieldError(await api.update(made.id, { status: "inactive" }), "status");
    expectFieldError(await api.update(made.id, { success_url: "http://evil.example" }), "success_url");
    expectFieldError(await api.update(made.id, { items: [] }), "items");
    expectNotFound(await api.update("plink_00000000000000000000000000", { status: "archived" }));
    await expectPermission((key) => api.update(made.id, { status: "active" }, key), {
      permission: "payment_link.write",
      denied: [["payment_link.read"], permissionsWithout("payment_link.")],
    });
  });
});

describe("GET /payment-links", () => {
  it("lists newest first, filters by id, status and price_id, pages", async () => {
    const price = await makePrice();
    const a = await createOk({ items: [{ price_id: price.id, quantity: 1 }] });
    const b = await createOk();
    const c = await createOk();
    await api.update(b.id, { status: "archived" });
    const all = ids(await api.list("?per_page=200"));
    expect(all.indexOf(c.id)).toBeLessThan(all.indexOf(a.id));
    expect(ids(await api.list("?status=archived&per_page=200"))).toContain(b.id);
    expect(ids(await api.list("?status=archived&per_page=200"))).not.toContain(a.id);
    expect(ids(await api.list(`?price_id=${price.id}`))).toEqual([a.id]);
    expect(ids(await api.list(`?id=${a.id},${c.id}`)).sort()).toEqual([a.id, c.id].sort());
    const page = await api.list("?per_page=1");
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta.pagination.has_more).toBe(true);
    expect(ids(await api.list("?order_by=id[ASC]&per_page=200"))).toEqual([...all].reverse());
  });

  it("refuses bad query parameters; needs payment_link.read; 405 for missing methods", async () => {
    expectFieldError(await api.list("?status=inactive"), "status[0]");
    expectFieldError(await api.list("?price_id=nope"), "price_id[0]");
    expectFieldError(await api.list("?order_by=url[ASC]"), "order_by");
    for (const q of ["?after=%00", `?after=${"x".repeat(5000)}`, "?status=,,,", "?id=plink_%ED%A0%80"]) {
      expect((await api.list(q)).status).toBeLessThan(500);
    }
    await expectPermission((key) => api.list("", key), {
      permission: "payment_link.read",
      denied: [permissionsWithout("payment_link.")],
    });
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/payment-links");
    const made = await createOk();
    await expectMethodsNotAllowed(item, ["PUT", "POST", "DELETE"], `/payment-links/${made.id}`, {
      payment_link_id: made.id,
    });
  });
});

describe("opening a link (public)", () => {
  it("makes a ready, automatically-collected transaction for the buyer and answers its checkout", async () => {
    const made = await createOk({ success_url: "https://shop.example.com/thanks" });
    const res = await openLink(made.id, BUYER);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { transaction_id, checkout } = res.body.data;
    expect(checkout.url).toMatch(new RegExp(`/checkout\\?_ptxn=${transaction_id}$`));
    const txn = (await transactions.get(transaction_id, "?include=customer")).body.data;
    expect(txn).toMatchObject({ status: "ready", collection_mode: "automatic" });
    expect(txn.customer.email).toBe(BUYER.email);
    expect(txn.items[0].price.id).toBe(made.items[0].price_id);
    const [row] = await query<{ checkout_success_url: string; payment_link_id: string }>(
      "SELECT checkout_success_url, payment_link_id FROM transactions WHERE id = $1",
      [transaction_id],
    );
    expect(row).toEqual({ checkout_success_url: "https://shop.example.com/thanks", payment_link_id: made.id });
    expect((await getCheckout(transaction_id)).success_url).toBe("https://shop.example.com/thanks");
    // The same buyer again: the same customer, a new transaction (the link is reusable).
    const again = await openLink(made.id, { ...BUYER, email: BUYER.email.toUpperCase() });
    expect(again.body.data.transaction_id).not.toBe(transaction_id);
    const second = (await transactions.get(again.body.data.transaction_id)).body.data;
    expect(second.customer_id).toBe(txn.customer_id);
  });

  it("a single-use link opens one transaction, then refuses once it is paid", async () => {
    const made = await createOk({ reusable: false });
    const first = await openLink(made.id, BUYER);
    expect(first.status).toBe(201);
    const txnId = first.body.data.transaction_id;
    expect((await api.get(made.id)).body.data.transaction_id).toBe(txnId);
    const again = await openLink(made.id, { ...BUYER, email: "someone-else@example.com" });
    expect(again.body.data.transaction_id).toBe(txnId);
    await payAtCheckout(txnId, TEST_CARD);
    const used = expectError(await openLink(made.id, BUYER), 400, "payment_link_used");
    expect(used.detail).toContain("single-use");
  });

  it("an archived link refuses; a recurring link's checkout starts a subscription", async () => {
    const made = await createOk();
    await api.update(made.id, { status: "archived" });
    expectError(await openLink(made.id, BUYER), 400, "payment_link_archived");
    const monthly = await makeRecurringPrice();
    const sub = await createOk({ items: [{ price_id: monthly.id, quantity: 3 }] });
    const opened = (await openLink(sub.id, BUYER)).body.data;
    const paid = await payAtCheckout(opened.transaction_id, TEST_CARD);
    expect(paid.transaction_status).toBe("completed");
    const txn = (await transactions.get(opened.transaction_id)).body.data;
    expect(txn.subscription_id).toMatch(/^sub_/);
  });

  it("prices for the buyer's country (its override) and checks email, country, postal code", async () => {
    const product = await makeProduct();
    const price = await makePrice({
      product_id: product.id,
      unit_price_overrides: [{ country_codes: ["DE"], unit_price: { amount: "900", currency_code: "EUR" } }],
    });
    const made = await createOk({ items: [{ price_id: price.id, quantity: 1 }] });
    const opened = await openLink(made.id, {
      email: "de@example.com",
      address: { country_code: "DE", postal_code: "10115" },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    expect((await transactions.get(opened.body.data.transaction_id)).body.data.currency_code).toBe("EUR");
    expectFieldError(await openLink(made.id, { email: "not an email", address: { country_code: "US" } }), "email");
    expectFieldError(
      await openLink(made.id, { email: "a@example.com", address: { country_code: "ZZ" } }),
      "address.country_code",
    );
    expectFieldError(
      await openLink(made.id, { email: "a@example.com", address: { country_code: "US" } }),
      "address.postal_code",
    );
    expectFieldError(await openLink(made.id, { email: "a@example.com" }), "address");
    expectFieldError(await openLink(made.id, { ...BUYER, customer_id: "ctm_x" }), "customer_id");
    expectNotFound(await openLink("plink_00000000000000000000000000", BUYER));
    expectNotFound(await openLink("nope", BUYER));
  });

  it("a price archived after the link was made: refused with a 4xx, nothing written", async () => {
    const price = await makePrice();
    const made = await createOk({ items: [{ price_id: price.id, quantity: 1 }] });
    await archivePrice(price.id);
    const before = await query<{ n: number }>("SELECT count(*)::int AS n FROM transactions");
    const res = await openLink(made.id, { ...BUYER, email: "late@example.com" });
    expect(res.status).toBe(400);
    const after = await query<{ n: number }>("SELECT count(*)::int AS n FROM transactions");
    expect(after[0]!.n).toBe(before[0]!.n);
    expect((await query("SELECT 1 FROM customers WHERE email = 'late@example.com'")).length).toBe(0);
  });
});
