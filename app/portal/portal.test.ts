/**
 * The customer portal's own endpoints (app/portal/session, app/portal/api/**): opening a link sets
 * the portal cookie; every action is for the token's customer only; hostile input is a 4xx.
 */
import { describe, expect, it } from "vitest";
import * as addressRoute from "@/app/portal/api/addresses/[address_id]/route";
import * as businessRoute from "@/app/portal/api/businesses/[business_id]/route";
import * as invoiceRoute from "@/app/portal/api/invoices/[transaction_id]/route";
import * as cancelRoute from "@/app/portal/api/subscriptions/[subscription_id]/cancel/route";
import * as checkoutRoute from "@/app/portal/api/subscriptions/[subscription_id]/payment-method-checkout/route";
import * as linkRoute from "@/app/portal/link/route";
import * as sessionRoute from "@/app/portal/session/route";
import { TEST_CARD } from "@/lib/dev/test/adjustments";
import {
  type CallOptions,
  call,
  expectError,
  expectFieldError,
  expectNotFound,
  type Handler,
} from "@/lib/dev/test/api";
import { events } from "@/lib/dev/test/checks";
import { advanceTo, lastTransaction, MINUTE } from "@/lib/dev/test/subscription-updates";
import { DECLINES_LATER_CARD, getSubscriptionJson, subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { makeBusiness, makeReady } from "@/lib/dev/test/transactions";
import { updateAccountSettings } from "@/lib/services/account-settings";
import { payAtCheckout } from "@/lib/services/payments/checkout";
import { PORTAL_COOKIE } from "@/lib/services/portal/access";
import { issueToken } from "@/lib/services/portal/tokens";

const cookieFor = async (customerId: string, now?: number) =>
  `${PORTAL_COOKIE}=${(await issueToken("portal", customerId, { now })).token}`;

/** A portal request: `cookie` null sends none. */
function portal(handler: Handler, method: string, path: string, cookie: string | null, options: CallOptions = {}) {
  return call(handler, method, path, {
    ...options,
    headers: { ...(cookie ? { cookie } : {}), ...options.headers },
  });
}

async function open(query: string) {
  const response = await sessionRoute.GET(new Request(`http://localhost:3000/portal/session?${query}`), {
    params: Promise.resolve({}),
  });
  return {
    status: response.status,
    location: response.headers.get("location"),
    cookie: response.headers.get("set-cookie"),
  };
}

describe("GET /portal/session (opening a link)", () => {
  it("keeps a valid token in an httpOnly cookie scoped to /portal and goes on without it", async () => {
    const { customer, subscription } = await subscribeAtCheckout();
    const { token } = await issueToken("portal", customer.id);
    const next = `/portal/subscriptions/${subscription.id}/cancel`;
    const res = await open(new URLSearchParams({ token, next }).toString());
    expect(res.status).toBe(303);
    expect(res.location).toBe(next);
    expect(res.cookie).toMatch(
      new RegExp(
        `^${PORTAL_COOKIE}=${token.replace(/[.]/g, "\\.")}; Path=/portal; Max-Age=(86400|86399); HttpOnly; SameSite=Lax$`,
      ),
    );
    // Never to another site.
    for (const bad of [
      "https://evil.example/portal",
      "//evil.example/portal",
      "/portal/../api/x",
      "/api/customers",
      "/portal//x",
    ]) {
      expect((await open(new URLSearchParams({ token, next: bad }).toString())).location).toBe("/portal/overview");
    }
  });

  it("an expired, tampered or missing token leads to the page that says so, with no cookie", async () => {
    const { customer } = await subscribeAtCheckout();
    const expired = (await issueToken("portal", customer.id, { now: Date.now() - 25 * 3_600_000 })).token;
    const valid = (await issueToken("portal", customer.id)).token;
    const cases: [string, string][] = [
      [new URLSearchParams({ token: expired }).toString(), "expired"],
      [new URLSearchParams({ token: `${valid.slice(0, -3)}abc` }).toString(), "invalid"],
      [new URLSearchParams({ token: (await issueToken("customer_auth", customer.id)).token }).toString(), "invalid"],
      [new URLSearchParams({ token: "pga_\u0000\ud800" }).toString(), "invalid"],
      ["", "missing"],
    ];
    for (const [query, reason] of cases) {
      const res = await open(query);
      expect(res.status, query).toBe(303);
      expect(res.location).toBe(`/portal/link?reason=${reason}`);
      expect(res.cookie).toBeNull();
    }
    expect((await open(`token=${"x".repeat(20_000)}&next=%00`)).location).toBe("/portal/link?reason=invalid");
  });
});

describe("GET /portal/link (the page a link that does not hold leads to)", () => {
  async function page(query: string) {
    const response = await linkRoute.GET(new Request(`http://localhost:3000/portal/link${query}`));
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  it("answers 410 for an expired link and 403 for an invalid or missing one, each saying what to do", async () => {
    const cases: [string, number, string, RegExp][] = [
      [
        "?reason=expired",
        410,
        "This link has expired",
        /valid for 24 hours.*open the billing link again to get a new one/s,
      ],
      ["?reason=invalid", 403, "This link is not valid", /cut short or changed.*exactly as it was sent/s],
      ["?reason=missing", 403, "Open this page from your account", /opens only from a secure link/],
      // Anything else (no reason, a made-up one) is an invalid link.
      ["", 403, "This link is not valid", /exactly as it was sent/],
      ["?reason=%3Cscript%3E", 403, "This link is not valid", /exactly as it was sent/],
    ];
    for (const [query, status, title, text] of cases) {
      const res = await page(query);
      expect(res.status, query).toBe(status);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.html).toContain(`<h1 id="problem-heading">${title}</h1>`);
      expect(res.html).toMatch(text);
      expect(res.html).toContain("Nothing about your subscriptions or payments has changed.");
      expect(res.html).not.toContain("<script");
    }
  });

  it("in the merchant's name, escaped, with their email to write to", async () => {
    await updateAccountSettings({ merchant_name: `Acme <b>"&'</b>`, merchant_email: "help@acme.example" });
    const res = await page("?reason=expired");
    expect(res.html).toContain("Acme &lt;b&gt;&quot;&amp;&#39;&lt;/b&gt;");
    expect(res.html).not.toContain("<b>");
    expect(res.html).toContain('<a href="mailto:help@acme.example">help@acme.example</a>');
  });
});

describe("portal actions", () => {
  it("cancel: at the end of the period through the subscriptions' cancel, for the token's customer only", async () => {
    const mine = await subscribeAtCheckout();
    const theirs = await subscribeAtCheckout();
    const cookie = await cookieFor(mine.customer.id);
    const cancel = (id: string, c: string | null, options: CallOptions = {}) =>
      portal(cancelRoute.POST, "POST", `/portal/api/subscriptions/${id}/cancel`, c, {
        params: { subscription_id: id },
        body: { confirm: true },
        ...options,
      });

    expectError(await cancel(mine.subscription.id, null), 401, "invalid_token");
    expectError(
      await cancel(mine.subscription.id, await cookieFor(mine.customer.id, Date.now() - 25 * 3_600_000)),
      401,
      "invalid_token",
    );
    expectError(
      await cancel(
        mine.subscription.id,
        `${PORTAL_COOKIE}=${(await issueToken("customer_auth", mine.customer.id)).token}`,
      ),
      401,
      "invalid_token",
    );
    expectNotFound(await cancel(theirs.subscription.id, cookie), theirs.subscription.id);
    expectNotFound(await cancel("sub_00000000000000000000000000", cookie));
    expectError(
      await cancel(mine.subscription.id, cookie, { headers: { origin: "https://evil.example" } }),
      403,
      "forbidden",
    );
    expectFieldError(await cancel(mine.subscription.id, cookie, { body: {} }), "confirm");
    expectFieldError(await cancel(mine.subscription.id, cookie, { body: { confirm: "yes" } }), "confirm");
    expectFieldError(
      await cancel(mine.subscription.id, cookie, { body: { confirm: true, effective_from: "immediately" } }),
      "effective_from",
    );
    expectError(
      await cancel(mine.subscription.id, cookie, { rawBody: "[", headers: { "content-type": "application/json" } }),
      400,
      "bad_request",
    );
    expect((await getSubscriptionJson(theirs.subscription.id)).scheduled_change).toBeNull();

    const res = await cancel(mine.subscription.id, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe("active");
    expect(res.body.data.scheduled_change).toMatchObject({
      action: "cancel",
      effective_at: mine.subscription.next_billed_at,
    });
    const types = (await events(mine.subscription.id)).map((e) => e.eventType);
    expect(types.at(-1)).toBe("subscription.updated");
  });

  it("update payment method while past due: the past-due transaction's checkout, whose payment recovers the subscription", async () => {
    const { subscription, customer } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    const other = await subscribeAtCheckout();
    await advanceTo(subscription.id, new Date(Date.parse(subscription.next_billed_at) + MINUTE));
    const renewal = await lastTransaction(subscription.id);
    expect(renewal.status).toBe("past_due");
    const cookie = await cookieFor(customer.id);
    const go = (id: string, c: string | null) =>
      portal(checkoutRoute.POST, "POST", `/portal/api/subscriptions/${id}/payment-method-checkout`, c, {
        params: { subscription_id: id },
      });
    expectNotFound(await go(other.subscription.id, cookie));
    expectError(await go(subscription.id, null), 401, "invalid_token");
    const res = await go(subscription.id, cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      transaction_id: renewal.id,
      checkout_url: `http://localhost:3000/checkout?_ptxn=${renewal.id}`,
    });
    await payAtCheckout(renewal.id, TEST_CARD);
    expect((await getSubscriptionJson(subscription.id)).status).toBe("active");
  });

  it("billing address and business: only the customer's own, only the fields a customer may change", async () => {
    const mine = await subscribeAtCheckout();
    const theirs = await subscribeAtCheckout();
    const cookie = await cookieFor(mine.customer.id);
    const patchAddress = (id: string, body: unknown, c: string | null = cookie) =>
      portal(addressRoute.PATCH, "PATCH", `/portal/api/addresses/${id}`, c, { params: { address_id: id }, body });
    const ok = await patchAddress(mine.address.id, { first_line: "5 New Street", city: "Albany", region: null });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({
      id: mine.address.id,
      first_line: "5 New Street",
      city: "Albany",
      region: null,
    });
    expect((await events(mine.address.id)).map((e) => e.eventType).at(-1)).toBe("address.updated");
    expectNotFound(await patchAddress(theirs.address.id, { city: "Stolen" }));
    expectNotFound(await patchAddress("add_00000000000000000000000000", { city: "X" }));
    expectError(await patchAddress(mine.address.id, { city: "X" }, null), 401, "invalid_token");
    expectFieldError(await patchAddress(mine.address.id, { country_code: "DE" }), "country_code");
    expectFieldError(await patchAddress(mine.address.id, { custom_data: {} }), "custom_data");
    expectFieldError(await patchAddress(mine.address.id, { city: "x".repeat(201) }), "city");
    expectFieldError(await patchAddress(mine.address.id, { city: 5 }), "city");
    // The postal-code rule of the address's country (US needs one).
    expectFieldError(await patchAddress(mine.address.id, { postal_code: null }), "postal_code");

    const business = await makeBusiness(mine.customer.id);
    const foreign = await makeBusiness(theirs.customer.id);
    const patchBusiness = (id: string, body: unknown) =>
      portal(businessRoute.PATCH, "PATCH", `/portal/api/businesses/${id}`, cookie, {
        params: { business_id: id },
        body,
      });
    const saved = await patchBusiness(business.id, {
      name: "New Name Ltd",
      tax_identifier: "GB123",
      company_number: null,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ name: "New Name Ltd", tax_identifier: "GB123", company_number: null });
    expectNotFound(await patchBusiness(foreign.id, { name: "Stolen" }));
    expectFieldError(await patchBusiness(business.id, { name: "" }), "name");
    expectFieldError(await patchBusiness(business.id, { status: "archived" }), "status");
    expectFieldError(await patchBusiness(business.id, { contacts: [] }), "contacts");
  });

  it("invoice PDFs of the customer's own invoiced transactions only", async () => {
    const mine = await subscribeAtCheckout();
    const theirs = await subscribeAtCheckout();
    const cookie = await cookieFor(mine.customer.id);
    const get = (id: string, c: string | null = cookie) =>
      invoiceRoute.GET(
        new Request(`http://localhost:3000/portal/api/invoices/${id}`, { headers: c ? { cookie: c } : {} }),
        { params: Promise.resolve({ transaction_id: id }) },
      );
    const pdf = await get(mine.transaction.id);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.pdf"$/);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    expect((await get(theirs.transaction.id)).status).toBe(404);
    const signedOut = await get(mine.transaction.id, null);
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get("location")).toBe("/portal/link?reason=missing");
    const expired = await get(mine.transaction.id, await cookieFor(mine.customer.id, Date.now() - 25 * 3_600_000));
    expect(expired.headers.get("location")).toBe("/portal/link?reason=expired");
    expect((await get("txn_00000000000000000000000000")).status).toBe(404);
    expect((await get("../../etc/passwd")).status).toBe(404);
    // A transaction of the customer with no invoice (not paid).
    const unpaid = await makeReady({ customer_id: mine.customer.id, address_id: mine.address.id });
    expect((await get(unpaid.id)).status).toBe(400);
  });
});
