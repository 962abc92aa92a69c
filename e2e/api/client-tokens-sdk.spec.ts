/**
 * The Node SDK of the API family, pointed at our base URL, does every client-side token operation:
 * create, get, list (with filters and pages), update and revoke; and the token then works, and stops
 * working, at the client-side library's endpoints over HTTP.
 */
import { ApiError } from "@paddle/paddle-node-sdk";
import { expect, test } from "@playwright/test";
import { baseURL } from "../playwright.config";
import { sdk } from "./sdk-helpers";

function pricingPreview(token: string, priceId: string) {
  return fetch(`${baseURL}/js-api/pricing-preview`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Origin: "https://shop.example" },
    body: JSON.stringify({ items: [{ price_id: priceId, quantity: 1 }], address: { country_code: "DE" } }),
  });
}

test("the Node SDK creates, reads, lists, updates and revokes client-side tokens", async () => {
  const paddle = sdk();
  const name = `SDK token ${Date.now()}`;

  const created = await paddle.clientTokens.create({ name, description: "Made by the SDK spec" });
  expect(created.id).toMatch(/^ctkn_[a-z0-9]{26}$/);
  expect(created.token).toMatch(/^test_[0-9a-f]{27}$/);
  expect(created.name).toBe(name);
  expect(created.description).toBe("Made by the SDK spec");
  expect(created.status).toBe("active");
  expect(created.revokedAt).toBeNull();
  expect(created.createdAt).toBe(created.updatedAt);

  const plain = await paddle.clientTokens.create({ name: `${name} (no description)` });
  expect(plain.description).toBeNull();

  const got = await paddle.clientTokens.get(created.id);
  expect(got).toEqual(created);

  // Lists: every page through the SDK's collection, and the status filter.
  const collection = paddle.clientTokens.list({ perPage: 1, orderBy: "id[DESC]" });
  const first = await collection.next();
  expect(first).toHaveLength(1);
  expect(first[0]!.id).toBe(plain.id);
  expect(collection.hasMore).toBe(true);
  const second = await collection.next();
  expect(second[0]!.id).toBe(created.id);

  // The token works at the library's endpoint.
  const product = await paddle.products.create({ name: `Token plan ${Date.now()}`, taxCategory: "standard" });
  const price = await paddle.prices.create({
    productId: product.id,
    description: "Monthly",
    unitPrice: { amount: "1000", currencyCode: "USD" },
    unitPriceOverrides: [{ countryCodes: ["DE"], unitPrice: { amount: "1190", currencyCode: "EUR" } }],
    taxMode: "location",
  });
  expect(price.taxMode).toBe("location");
  const works = await pricingPreview(created.token, price.id);
  expect(works.status).toBe(200);
  expect(works.headers.get("access-control-allow-origin")).toBe("*");
  expect((await works.json()).data.details.line_items[0].formatted_totals.total).toBe("€11.90");

  // update with status active changes nothing; revoke (update with status revoked) is one way.
  const same = await paddle.clientTokens.update(created.id, { status: "active" });
  expect(same).toEqual(created);
  const revoked = await paddle.clientTokens.revoke(created.id);
  expect(revoked.status).toBe("revoked");
  expect(revoked.revokedAt).not.toBeNull();
  expect(revoked.updatedAt).toBe(revoked.revokedAt);

  const again = await paddle.clientTokens.update(created.id, { status: "active" }).catch((e: unknown) => e);
  expect(again).toBeInstanceOf(ApiError);
  expect((again as ApiError).code).toBe("conflict");
  const twice = await paddle.clientTokens.revoke(created.id).catch((e: unknown) => e);
  expect((twice as ApiError).code).toBe("conflict");

  const revokedList = await paddle.clientTokens.list({ status: ["revoked"], perPage: 200 }).next();
  expect(revokedList.map((t) => t.id)).toContain(created.id);
  const activeList = await paddle.clientTokens.list({ status: ["active"], perPage: 200 }).next();
  expect(activeList.map((t) => t.id)).not.toContain(created.id);
  expect(activeList.map((t) => t.id)).toContain(plain.id);

  // Revoked: the library's endpoint refuses it with 403 invalid_client_token.
  const refused = await pricingPreview(created.token, price.id);
  expect(refused.status).toBe(403);
  expect((await refused.json()).error.code).toBe("invalid_client_token");

  // Not found, and a token is never an API key.
  const missing = await paddle.clientTokens.get("ctkn_00000000000000000000000000").catch((e: unknown) => e);
  expect((missing as ApiError).code).toBe("not_found");
  const asKey = await sdk(plain.token)
    .customers.list()
    .next()
    .catch((e: unknown) => e);
  expect((asKey as ApiError).code).toBe("invalid_token");

  // The events of each change, in order.
  const events = await paddle.events
    .list({ perPage: 200, eventType: ["client_token.created", "client_token.revoked"] })
    .next();
  const types = events.filter((e) => (e.data as { id?: string }).id === created.id).map((e) => e.eventType);
  expect(types).toEqual(["client_token.revoked", "client_token.created"]);
});
