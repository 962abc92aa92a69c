/**
 * The official Node SDK of the API family we mirror, pointed at our base URL, works unchanged.
 */
import { expect, test } from "@playwright/test";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";
import { sdk } from "./sdk-helpers";

test("the Node SDK manages customers, addresses and businesses", async () => {
  const paddle = sdk(cliApiKey());
  const email = `sdk-${Date.now()}@example.com`;
  const customer = await paddle.customers.create({ email, name: "SDK Customer", customData: { plan: "pro" } });
  expect(customer.id).toMatch(/^ctm_[a-z0-9]{26}$/);
  expect(customer.email).toBe(email);
  expect(customer.customData).toEqual({ plan: "pro" });
  expect(customer.locale).toBe("en");

  const updated = await paddle.customers.update(customer.id, { name: "Renamed" });
  expect(updated.name).toBe("Renamed");
  expect((await paddle.customers.get(customer.id)).name).toBe("Renamed");

  const address = await paddle.addresses.create(customer.id, {
    countryCode: "US",
    postalCode: "10001",
    city: "New York",
  });
  expect(address.id).toMatch(/^add_/);
  expect(address.countryCode).toBe("US");
  const business = await paddle.businesses.create(customer.id, {
    name: "Acme Inc",
    contacts: [{ name: "Ann", email: "ann@acme.example" }],
  });
  expect(business.id).toMatch(/^biz_/);

  const addresses = await paddle.addresses.list(customer.id).next();
  expect(addresses.map((a) => a.id)).toContain(address.id);
  const businesses = await paddle.businesses.list(customer.id).next();
  expect(businesses.map((b) => b.id)).toContain(business.id);

  const archived = await paddle.customers.archive(customer.id);
  expect(archived.status).toBe("archived");
});

test("the Node SDK pages through a list with `next`", async () => {
  const paddle = sdk(cliApiKey());
  const prefix = `page-${Date.now()}`;
  for (let i = 0; i < 5; i++) await paddle.customers.create({ email: `${prefix}-${i}@example.com` });
  const collection = paddle.customers.list({ perPage: 2, search: prefix });
  const seen: string[] = [];
  while (collection.hasMore) {
    for (const customer of await collection.next()) seen.push(customer.email);
  }
  expect(seen.sort()).toEqual([0, 1, 2, 3, 4].map((i) => `${prefix}-${i}@example.com`));
});

for (const [where, base] of [
  ["under /api", `${baseURL}/api`],
  ["at the host root", baseURL],
] as const) {
  test(`the Node SDK iterates a list across pages with its iterator, ${where}`, async () => {
    const paddle = sdk(cliApiKey(), base);
    const prefix = `iter-${Date.now()}-${where.length}`;
    const emails = [0, 1, 2, 3, 4, 5, 6].map((i) => `${prefix}-${i}@example.com`);
    for (const email of emails) await paddle.customers.create({ email });
    const collection = paddle.customers.list({ perPage: 2, search: prefix });
    const seen: string[] = [];
    for await (const customer of collection) seen.push(customer.email);
    // Seven customers, two a page: four pages, every customer once, newest-last order kept.
    expect(seen).toEqual(emails);
    expect(collection.hasMore).toBe(false);
    expect(collection.estimatedTotal).toBe(7);
  });
}

test("the Node SDK surfaces our errors", async () => {
  const paddle = sdk(cliApiKey(["customer.read"]));
  await expect(paddle.customers.create({ email: "x@example.com" })).rejects.toMatchObject({ code: "forbidden" });
  await expect(paddle.customers.get("ctm_00000000000000000000000000")).rejects.toMatchObject({ code: "not_found" });
  const types = await paddle.eventTypes.list();
  expect(types.map((t) => t.name)).toContain("customer.created");
});
