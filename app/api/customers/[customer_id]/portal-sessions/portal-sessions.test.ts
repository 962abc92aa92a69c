/**
 * POST /customers/{id}/portal-sessions, POST /customers/{id}/auth-token and the management_urls of
 * subscriptions with and without customer_portal_session.write (decision: portal-tokens).
 */
import { describe, expect, it } from "vitest";
import * as authToken from "@/app/api/customers/[customer_id]/auth-token/route";
import * as portalSessions from "@/app/api/customers/[customer_id]/portal-sessions/route";
import * as subscriptionCancel from "@/app/api/subscriptions/[subscription_id]/cancel/route";
import * as subscriptionPreview from "@/app/api/subscriptions/[subscription_id]/preview/route";
import * as subscriptionList from "@/app/api/subscriptions/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { subscribeAtCheckout, subscribeByInvoice } from "@/lib/dev/test/subscriptions";
import { makeCustomer } from "@/lib/dev/test/transactions";
import { issueToken, verifyToken } from "@/lib/services/portal/tokens";

const PUBLIC = "http://localhost:3000";

async function createSession(customerId: string, body?: unknown, key?: string | null) {
  return call(portalSessions.POST, "POST", `/customers/${customerId}/portal-sessions`, {
    key: key === undefined ? await admin() : key,
    params: { customer_id: customerId },
    body,
  });
}

async function createAuthToken(customerId: string, key?: string | null) {
  return call(authToken.POST, "POST", `/customers/${customerId}/auth-token`, {
    key: key === undefined ? await admin() : key,
    params: { customer_id: customerId },
  });
}

function tokenOf(url: string): string {
  const token = new URL(url).searchParams.get("token");
  expect(token).toMatch(/^pga_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  return token as string;
}

describe("POST /customers/{customer_id}/portal-sessions", () => {
  it("answers 201 in the family's shape, with a signed 24-hour customer-scoped token in every link", async () => {
    const { subscription, customer } = await subscribeAtCheckout();
    const res = await createSession(customer.id, { subscription_ids: [subscription.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const session = res.body.data;
    expect(Object.keys(session)).toEqual(["id", "customer_id", "urls", "created_at"]);
    expect(session.id).toMatch(/^cpls_[a-z0-9]{26}$/);
    expect(session.customer_id).toBe(customer.id);
    expect(session.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Object.keys(session.urls)).toEqual(["general", "subscriptions"]);
    expect(session.urls.general.overview).toMatch(new RegExp(`^${PUBLIC}/portal/overview\\?token=pga_`));
    expect(session.urls.subscriptions).toEqual([
      {
        id: subscription.id,
        cancel_subscription: expect.stringMatching(
          new RegExp(`^${PUBLIC}/portal/subscriptions/${subscription.id}/cancel\\?token=pga_`),
        ),
        update_subscription_payment_method: expect.stringMatching(
          new RegExp(`^${PUBLIC}/portal/subscriptions/${subscription.id}/update-payment-method\\?token=pga_`),
        ),
      },
    ]);
    const token = tokenOf(session.urls.general.overview);
    expect(tokenOf(session.urls.subscriptions[0].cancel_subscription)).toBe(token);

    const check = await verifyToken("portal", token);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.claims).toMatchObject({ customerId: customer.id, sessionId: session.id });
    expect(check.claims.expiresAt - check.claims.issuedAt).toBe(24 * 60 * 60);
    // Expired a second after its 24 hours.
    const later = (check.claims.expiresAt + 1) * 1000;
    expect(await verifyToken("portal", token, later)).toEqual({ ok: false, reason: "expired" });
    // Grants nothing outside the portal: not a customer auth token, not an API key.
    expect(await verifyToken("customer_auth", token)).toEqual({ ok: false, reason: "invalid" });
    expectError(await call(subscriptionList.GET, "GET", "/subscriptions", { key: token }), 401, "invalid_token");

    // Stored, without the token; no event.
    const [row] = await query<{ customer_id: string; subscription_ids: string[] }>(
      "SELECT customer_id, subscription_ids FROM customer_portal_sessions WHERE id = $1",
      [session.id],
    );
    expect(row).toEqual({ customer_id: customer.id, subscription_ids: [subscription.id] });
    expect(await events(session.id)).toEqual([]);
  });

  it("without subscription_ids (no body, {} or []) gives only the overview link", async () => {
    const customer = await makeCustomer();
    for (const body of [undefined, {}, { subscription_ids: [] }]) {
      const res = await createSession(customer.id, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.urls.subscriptions).toEqual([]);
      tokenOf(res.body.data.urls.general.overview);
    }
  });

  it("a tampered token, a token of another kind and a forged signature are invalid", async () => {
    const customer = await makeCustomer();
    const other = await makeCustomer();
    const token = tokenOf((await createSession(customer.id)).body.data.urls.general.overview);
    const [body, signature] = token.split(".");
    const payload = JSON.parse(Buffer.from(body!.slice(4), "base64url").toString());
    const forged = `pga_${Buffer.from(JSON.stringify({ ...payload, sub: other.id })).toString("base64url")}`;
    for (const bad of [
      `${forged}.${signature}`,
      `${body}.${signature!.slice(0, -2)}AA`,
      `${body}x.${signature}`,
      token.replace(/^pga_/, "pca_"),
      (await issueToken("customer_auth", customer.id)).token,
      "",
      "pga_",
      "x".repeat(5000),
    ]) {
      expect(await verifyToken("portal", bad), bad.slice(0, 40)).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("dedupes subscription_ids; at most 25; unknown and other customers' IDs are refused alike", async () => {
    const { subscription, customer } = await subscribeAtCheckout();
    const other = await subscribeAtCheckout();
    const twice = await createSession(customer.id, { subscription_ids: [subscription.id, subscription.id] });
    expect(twice.status).toBe(201);
    expect(twice.body.data.urls.subscriptions.map((s: { id: string }) => s.id)).toEqual([subscription.id]);

    const unknown = "sub_00000000000000000000000000";
    const notOurs = await createSession(customer.id, { subscription_ids: [subscription.id, other.subscription.id] });
    const a = expectFieldError(notOurs, "subscription_ids[1]");
    const b = expectFieldError(
      await createSession(customer.id, { subscription_ids: [unknown] }),
      "subscription_ids[0]",
    );
    expect(a.errors?.[0]?.message).toBe(
      `no subscription of customer ${customer.id} has the ID ${other.subscription.id}`,
    );
    expect(b.errors?.[0]?.message).toBe(`no subscription of customer ${customer.id} has the ID ${unknown}`);

    const many = Array.from({ length: 26 }, () => subscription.id);
    expectFieldError(await createSession(customer.id, { subscription_ids: many }), "subscription_ids");
    expect((await createSession(customer.id, { subscription_ids: many.slice(0, 25) })).status).toBe(201);
    for (const body of [
      { subscription_ids: ["nope"] },
      { subscription_ids: "sub_x" },
      { subscription_ids: [1] },
      { subscription_ids: null },
      { subscription_ids: [subscription.id], extra: 1 },
    ]) {
      expect((await createSession(customer.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expectError(await createSession(customer.id, [1]), 400, "bad_request");
    expectError(
      await call(portalSessions.POST, "POST", `/customers/${customer.id}/portal-sessions`, {
        key: await admin(),
        params: { customer_id: customer.id },
        rawBody: '{"subscription_ids": [',
        headers: { "content-type": "application/json" },
      }),
      400,
      "bad_request",
    );
  });

  it("needs customer_portal_session.write; 404 for an unknown customer; 405 for other methods", async () => {
    const customer = await makeCustomer();
    await expectPermission((key) => createSession(customer.id, {}, key), {
      permission: "customer_portal_session.write",
      denied: [permissionsWithout("customer_portal_session."), ["customer.read", "customer.write"]],
      status: 201,
    });
    expectError(await createSession(customer.id, {}, null), 401, "invalid_token");
    expectNotFound(await createSession("ctm_00000000000000000000000000", {}), "ctm_00000000000000000000000000");
    expectNotFound(await createSession("nope", {}));
    await expectMethodsNotAllowed(
      portalSessions,
      ["GET", "PUT", "PATCH", "DELETE"],
      `/customers/${customer.id}/portal-sessions`,
      {
        customer_id: customer.id,
      },
    );
  });
});

describe("POST /customers/{customer_id}/auth-token", () => {
  it("answers 200 with a pca_ token expiring in 30 minutes, which the portal refuses", async () => {
    const customer = await makeCustomer();
    const res = await createAuthToken(customer.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(["customer_auth_token", "expires_at"]);
    const { customer_auth_token: token, expires_at } = res.body.data;
    expect(token).toMatch(/^pca_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const lifetime = Date.parse(expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(29 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(30 * 60_000);
    const check = await verifyToken("customer_auth", token);
    expect(check.ok && check.claims.customerId).toBe(customer.id);
    expect(await verifyToken("portal", token)).toEqual({ ok: false, reason: "invalid" });
  });

  it("needs customer_auth_token.write; 404 for unknown customers; ignores a body; 405 otherwise", async () => {
    const customer = await makeCustomer();
    await expectPermission((key) => createAuthToken(customer.id, key), {
      permission: "customer_auth_token.write",
      denied: [permissionsWithout("customer_auth_token."), ["customer_portal_session.write"]],
    });
    expectNotFound(await createAuthToken("ctm_00000000000000000000000000"));
    const withBody = await call(authToken.POST, "POST", `/customers/${customer.id}/auth-token`, {
      key: await admin(),
      params: { customer_id: customer.id },
      rawBody: "\u0000garbage",
      headers: { "content-type": "text/plain" },
    });
    expect(withBody.status).toBe(200);
    await expectMethodsNotAllowed(
      authToken,
      ["GET", "PUT", "PATCH", "DELETE"],
      `/customers/${customer.id}/auth-token`,
      {
        customer_id: customer.id,
      },
    );
  });
});

describe("management_urls", () => {
  it("are authenticated for keys with customer_portal_session.write, plain otherwise, absent from events", async () => {
    const { subscription, customer } = await subscribeAtCheckout();
    const plainKey = await testKey(["subscription.read", "subscription.write"]);
    const portalKey = await testKey(["subscription.read", "subscription.write", "customer_portal_session.write"]);
    const base = `${PUBLIC}/portal/subscriptions/${subscription.id}`;

    const plain = (await call(subscriptionList.GET, "GET", `/subscriptions?id=${subscription.id}`, { key: plainKey }))
      .body.data[0];
    expect(plain.management_urls).toEqual({
      update_payment_method: `${base}/update-payment-method`,
      cancel: `${base}/cancel`,
    });

    const listed = (await call(subscriptionList.GET, "GET", `/subscriptions?id=${subscription.id}`, { key: portalKey }))
      .body.data[0];
    expect(listed.management_urls.cancel).toMatch(new RegExp(`^${base}/cancel\\?token=pga_`));
    expect(listed.management_urls.update_payment_method).toMatch(
      new RegExp(`^${base}/update-payment-method\\?token=pga_`),
    );
    const check = await verifyToken("portal", tokenOf(listed.management_urls.cancel));
    expect(check.ok && check.claims).toMatchObject({ customerId: customer.id, sessionId: null });
    // Issued as of the hour's start: the same links for an hour, valid 23 to 24 hours.
    if (check.ok) {
      expect(check.claims.issuedAt % 3600).toBe(0);
      expect(check.claims.expiresAt - check.claims.issuedAt).toBe(24 * 3600);
    }
    const again = (await call(subscriptionList.GET, "GET", `/subscriptions?id=${subscription.id}`, { key: portalKey }))
      .body.data[0];
    if (new Date().getUTCMinutes() !== 59) expect(again.management_urls).toEqual(listed.management_urls);
    // The rest of the entity is as it was, in the same field order.
    expect(Object.keys(listed)).toEqual(Object.keys(plain));
    expect({ ...listed, management_urls: null }).toEqual({ ...plain, management_urls: null });

    // A preview's (it has no id) and an action's answer too; the action's event carries no management_urls.
    const preview = await call(subscriptionPreview.PATCH, "PATCH", `/subscriptions/${subscription.id}/preview`, {
      key: portalKey,
      params: { subscription_id: subscription.id },
      body: { custom_data: { a: 1 } },
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.management_urls.cancel).toMatch(new RegExp(`^${base}/cancel\\?token=pga_`));
    const canceled = await call(subscriptionCancel.POST, "POST", `/subscriptions/${subscription.id}/cancel`, {
      key: portalKey,
      params: { subscription_id: subscription.id },
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body.data.management_urls.cancel).toContain("?token=pga_");
    const stored = await query<{ data: Record<string, unknown> }>(
      "SELECT data FROM events WHERE entity_id = $1 ORDER BY id",
      [subscription.id],
    );
    expect(stored.length).toBeGreaterThan(0);
    for (const event of stored) expect(JSON.stringify(event.data)).not.toContain("pga_");
    for (const event of stored) expect(event.data).not.toHaveProperty("management_urls");
  });

  it("a manually-collected subscription keeps update_payment_method null", async () => {
    const { subscription } = await subscribeByInvoice();
    const portalKey = await testKey(["subscription.read", "customer_portal_session.write"]);
    const res = await call(subscriptionList.GET, "GET", `/subscriptions?id=${subscription.id}`, { key: portalKey });
    expect(res.body.data[0].management_urls.update_payment_method).toBeNull();
    expect(res.body.data[0].management_urls.cancel).toContain("?token=pga_");
  });
});
