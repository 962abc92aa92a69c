/**
 * Integration tests of the address endpoints: the real route handlers on a real PostgreSQL.
 *   GET/POST  /customers/{customer_id}/addresses
 *   GET/PATCH /customers/{customer_id}/addresses/{address_id}
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/connection";
import { type ApiResult, call, expectError, expectFieldError } from "@/lib/dev/test/api";
import { events, expectMaxLength } from "@/lib/dev/test/checks";
import { describeChildEntityAccess } from "@/lib/dev/test/child-entity";
import { admin, childResource } from "@/lib/dev/test/resource";
import { POSTAL_CODE_REQUIRED } from "@/lib/schemas/countries";
import { createCustomer } from "@/lib/services/customers";
import * as one from "./[address_id]/route";
import * as many from "./route";

const ADDRESS_FIELDS = [
  "id",
  "customer_id",
  "description",
  "first_line",
  "second_line",
  "city",
  "postal_code",
  "region",
  "country_code",
  "custom_data",
  "status",
  "created_at",
  "updated_at",
  "import_meta",
];
/** The length limits of the address's text fields. */
const LIMITS: [string, number][] = [
  ["description", 1024],
  ["first_line", 1024],
  ["second_line", 1024],
  ["city", 200],
  ["postal_code", 200],
  ["region", 200],
];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UNKNOWN_CUSTOMER = "ctm_01aaaaaaaaaaaaaaaaaaaaaaaa";
const UNKNOWN_ADDRESS = "add_01aaaaaaaaaaaaaaaaaaaaaaaa";

let customerId: string;
let counter = 0;

async function newCustomer(): Promise<string> {
  counter += 1;
  const customer = await createCustomer({ email: `address-test-${counter}@example.com` });
  return customer.parse().id;
}

const { create, list, get, update } = childResource("/customers", "customer_id", "addresses", "address_id", many, one);

/** Creates an address and returns it (fails the test when creation fails). */
async function address(customer: string, body: Record<string, unknown> = { country_code: "SE" }) {
  const res = await create(customer, body);
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
}

beforeAll(async () => {
  customerId = await newCustomer();
});

describe("POST /customers/{customer_id}/addresses", () => {
  it("creates an address from a country code alone: 201, envelope, fields in spec order, defaults", async () => {
    const res = await create(customerId, { country_code: "SE" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(typeof res.body.meta.request_id).toBe("string");
    const data = res.body.data;
    expect(Object.keys(data)).toEqual(ADDRESS_FIELDS);
    expect(data.id).toMatch(/^add_[a-z0-9]{26}$/);
    expect(data).toMatchObject({
      customer_id: customerId,
      description: null,
      first_line: null,
      second_line: null,
      city: null,
      postal_code: null,
      region: null,
      country_code: "SE",
      custom_data: null,
      status: "active",
      import_meta: null,
    });
    expect(data.created_at).toMatch(TIMESTAMP);
    expect(data.updated_at).toMatch(TIMESTAMP);
  });

  it("stores every field and emits address.created with the serialized address in the same transaction", async () => {
    const body = {
      description: "Head office",
      first_line: "4050 Jefferson Plaza, 41st Floor",
      second_line: "Suite 12",
      city: "New York",
      postal_code: "10021",
      region: "NY",
      country_code: "US",
      custom_data: { crm_id: "abc", nested: { level: 2 } },
    };
    const res = await create(customerId, body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject(body);

    const fetched = await get(customerId, res.body.data.id);
    expect(fetched.body.data).toEqual(res.body.data);

    const rows = await events(res.body.data.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.eventType).toBe("address.created");
    expect(rows[0]!.id).toMatch(/^evt_[a-z0-9]{26}$/);
    expect(rows[0]!.data).toEqual(res.body.data);
  });

  it("accepts null for every optional field", async () => {
    const res = await create(customerId, {
      country_code: "SE",
      description: null,
      first_line: null,
      second_line: null,
      city: null,
      postal_code: null,
      region: null,
      custom_data: null,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.custom_data).toBeNull();
    expect(res.body.data.city).toBeNull();
  });

  describe("length limits", () => {
    it.each(LIMITS)("accepts %s of %i characters", async (field, max) => {
      const res = await create(customerId, { country_code: "US", postal_code: "10001", [field]: "x".repeat(max) });
      expect(res.status).toBe(201);
      expect(res.body.data[field]).toBe("x".repeat(max));
    });

    it.each(LIMITS)("rejects %s of one more than %i characters, naming the field", async (field, max) => {
      const res = await create(customerId, { country_code: "US", postal_code: "10001", [field]: "x".repeat(max + 1) });
      expectFieldError(res, field);
      expect(res.body.error.errors).toHaveLength(1);
    });

    it.each(LIMITS.map(([field]) => field))("rejects a non-string %s", async (field) => {
      expectFieldError(await create(customerId, { country_code: "US", postal_code: "10001", [field]: 12 }), field);
    });
  });

  describe("country_code", () => {
    it("is required", async () => {
      expectFieldError(await create(customerId, { city: "Berlin" }), "country_code");
    });

    it.each([["us"], ["XX"], ["USA"], [""], [null], [1]])("rejects %j", async (value) => {
      expectFieldError(await create(customerId, { country_code: value, postal_code: "1" }), "country_code");
    });

    it("serves the countries the API family serves: not sanctioned ones (named), and Kosovo (XK)", async () => {
      const res = await create(customerId, { country_code: "RU" });
      expectFieldError(res, "country_code");
      expect(res.body.error.errors[0].message).toContain("RU is a country this API does not serve");
      expect((await create(customerId, { country_code: "XK" })).status).toBe(201);
    });
  });

  describe("postal code rule", () => {
    it.each([...POSTAL_CODE_REQUIRED])("requires postal_code for %s", async (country) => {
      const res = await create(customerId, { country_code: country, city: "Somewhere" });
      expectFieldError(res, "postal_code");
      expect(res.body.error.errors).toEqual([{ field: "postal_code", message: expect.stringContaining(country) }]);
      expect((await create(customerId, { country_code: country, postal_code: "12345" })).status).toBe(201);
    });

    it.each([[null], [""], ["   "]])("treats postal_code %j as missing", async (postal) => {
      expectFieldError(await create(customerId, { country_code: "GB", postal_code: postal }), "postal_code");
    });

    it("does not require it for other countries", async () => {
      expect((await create(customerId, { country_code: "IE" })).status).toBe(201);
      expect((await create(customerId, { country_code: "JP", postal_code: null })).status).toBe(201);
    });
  });

  describe("custom_data", () => {
    it.each([[[1, 2]], ["text"], [42], [true]])("rejects %j", async (value) => {
      expectFieldError(await create(customerId, { country_code: "SE", custom_data: value }), "custom_data");
    });

    it("accepts an empty object", async () => {
      const res = await create(customerId, { country_code: "SE", custom_data: {} });
      expect(res.status).toBe(201);
      expect(res.body.data.custom_data).toEqual({});
    });
  });

  it("rejects fields the address does not have", async () => {
    const res = await create(customerId, { country_code: "SE", status: "archived" });
    expectError(res, 400, "invalid_field");
  });

  it("reports every invalid field at once", async () => {
    const res = await create(customerId, { country_code: "ZZ", city: "x".repeat(201), region: 5 });
    expectFieldError(res, "country_code");
    expectFieldError(res, "city");
    expectFieldError(res, "region");
  });

  it("rejects a body that is not a JSON object", async () => {
    const res = await call(many.POST, "POST", `/customers/${customerId}/addresses`, {
      key: await admin(),
      rawBody: "[]",
      headers: { "content-type": "application/json" },
      params: { customer_id: customerId },
    });
    expectError(res, 400, "bad_request");
  });

  it("writes no address and no event when validation fails", async () => {
    const before = await db().address.count();
    const eventsBefore = await db().event.count({ where: { eventType: "address.created" } });
    await create(customerId, { country_code: "US" });
    expect(await db().address.count()).toBe(before);
    expect(await db().event.count({ where: { eventType: "address.created" } })).toBe(eventsBefore);
  });
});

describe("GET /customers/{customer_id}/addresses/{address_id}", () => {
  it("returns the address", async () => {
    const created = await address(customerId, { country_code: "FR", postal_code: "75001", city: "Paris" });
    const res = await get(customerId, created.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.data)).toEqual(ADDRESS_FIELDS);
    expect(res.body.data).toEqual(created);
  });

  it("returns archived addresses too", async () => {
    const created = await address(customerId);
    await update(customerId, created.id, { status: "archived" });
    const res = await get(customerId, created.id);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("archived");
  });
});

describe("PATCH /customers/{customer_id}/addresses/{address_id}", () => {
  it("changes only the fields sent and emits address.updated", async () => {
    const created = await address(customerId, {
      country_code: "SE",
      city: "Stockholm",
      first_line: "Drottninggatan 1",
      custom_data: { a: 1 },
    });
    const res = await update(customerId, created.id, { city: "Uppsala", description: "Warehouse" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.data)).toEqual(ADDRESS_FIELDS);
    expect(res.body.data).toMatchObject({
      id: created.id,
      city: "Uppsala",
      description: "Warehouse",
      first_line: "Drottninggatan 1",
      country_code: "SE",
      custom_data: { a: 1 },
      created_at: created.created_at,
    });
    expect(res.body.data.updated_at >= created.updated_at).toBe(true);

    const rows = await events(created.id);
    expect(rows.map((row) => row.eventType)).toEqual(["address.created", "address.updated"]);
    expect(rows[1]!.data).toEqual(res.body.data);
    expect((await get(customerId, created.id)).body.data).toEqual(res.body.data);
  });

  it("clears fields set to null", async () => {
    const created = await address(customerId, { country_code: "SE", city: "Malmö", custom_data: { a: 1 } });
    const res = await update(customerId, created.id, { city: null, custom_data: null });
    expect(res.status).toBe(200);
    expect(res.body.data.city).toBeNull();
    expect(res.body.data.custom_data).toBeNull();
  });

  it("archives and reactivates through status, with an address.updated event each time", async () => {
    const created = await address(customerId);
    const archived = await update(customerId, created.id, { status: "archived" });
    expect(archived.status).toBe(200);
    expect(archived.body.data.status).toBe("archived");
    const restored = await update(customerId, created.id, { status: "active" });
    expect(restored.body.data.status).toBe("active");

    const rows = await events(created.id);
    expect(rows.map((row) => [row.eventType, (row.data as { status: string }).status])).toEqual([
      ["address.created", "active"],
      ["address.updated", "archived"],
      ["address.updated", "active"],
    ]);
  });

  it.each([["deleted"], [null], [""]])("rejects status %j", async (status) => {
    const created = await address(customerId);
    expectFieldError(await update(customerId, created.id, { status }), "status");
  });

  describe("length limits", () => {
    it.each(LIMITS)("accepts %s of %i characters and rejects one more", async (field, max) => {
      const created = await address(customerId);
      await expectMaxLength((value) => update(customerId, created.id, { [field]: value }), field, max, {
        status: 200,
        char: "y",
      });
    });
  });

  it("rejects an invalid country_code, a null one and custom_data that is not an object", async () => {
    const created = await address(customerId);
    expectFieldError(await update(customerId, created.id, { country_code: "xx" }), "country_code");
    expectFieldError(await update(customerId, created.id, { country_code: null }), "country_code");
    expectFieldError(await update(customerId, created.id, { custom_data: ["a"] }), "custom_data");
    expectFieldError(await update(customerId, created.id, { custom_data: "a" }), "custom_data");
  });

  describe("postal code rule on the resulting address", () => {
    it("rejects moving an address without a postal code to a country that needs one", async () => {
      const created = await address(customerId, { country_code: "SE" });
      const res = await update(customerId, created.id, { country_code: "US" });
      expectFieldError(res, "postal_code");
      expect(res.body.error.errors).toHaveLength(1);
      // Nothing changed, and no event was written for the failed update.
      expect((await get(customerId, created.id)).body.data).toEqual(created);
      expect((await events(created.id)).map((row) => row.eventType)).toEqual(["address.created"]);
    });

    it("accepts the move when the postal code comes with it", async () => {
      const created = await address(customerId, { country_code: "SE" });
      const res = await update(customerId, created.id, { country_code: "US", postal_code: "94105" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ country_code: "US", postal_code: "94105" });
    });

    it("keeps the stored postal code when moving to a country that needs one", async () => {
      const created = await address(customerId, { country_code: "SE", postal_code: "111 22" });
      const res = await update(customerId, created.id, { country_code: "DE" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ country_code: "DE", postal_code: "111 22" });
    });

    it.each([[null], [""], ["  "]])(
      "rejects removing the postal code (%j) of an address that needs one",
      async (postal) => {
        const created = await address(customerId, { country_code: "CA", postal_code: "K1A 0B1" });
        expectFieldError(await update(customerId, created.id, { postal_code: postal }), "postal_code");
      },
    );

    it("allows removing the postal code while moving to a country that does not need one", async () => {
      const created = await address(customerId, { country_code: "CA", postal_code: "K1A 0B1" });
      const res = await update(customerId, created.id, { postal_code: null, country_code: "MX" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ country_code: "MX", postal_code: null });
    });
  });
});

describe("GET /customers/{customer_id}/addresses", () => {
  it("lists the customer's active addresses in ID order with pagination meta", async () => {
    const customer = await newCustomer();
    const a = await address(customer, { country_code: "SE", city: "Lund" });
    const b = await address(customer, { country_code: "NO" });
    const archived = await address(customer, { country_code: "DK" });
    await update(customer, archived.id, { status: "archived" });
    // Another customer's address never shows.
    await address(customerId);

    const res = await list(customer);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    expect(Object.keys(res.body.data[0])).toEqual(ADDRESS_FIELDS);
    expect(res.body.data[0]).toEqual(a);
    expect(res.body.meta.pagination).toEqual({
      per_page: 50,
      next: expect.stringContaining(`after=${b.id}`),
      has_more: false,
      estimated_total: 2,
    });
    expect(typeof res.body.meta.request_id).toBe("string");
  });

  it("returns an empty page for a customer without addresses", async () => {
    const customer = await newCustomer();
    const res = await list(customer);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.pagination).toMatchObject({ has_more: false, estimated_total: 0 });
  });

  describe("filters", () => {
    let customer: string;
    let active: Record<string, any>;
    let second: Record<string, any>;
    let archived: Record<string, any>;

    beforeAll(async () => {
      customer = await newCustomer();
      active = await address(customer, {
        country_code: "US",
        postal_code: "10021",
        city: "New York",
        region: "NY",
        first_line: "Jefferson Plaza",
        description: "Head Office",
      });
      second = await address(customer, {
        country_code: "GB",
        postal_code: "SW1A 1AA",
        city: "London",
        second_line: "Flat 3b",
      });
      archived = await address(customer, { country_code: "SE", city: "Göteborg" });
      await update(customer, archived.id, { status: "archived" });
    });

    const ids = (res: ApiResult) => res.body.data.map((x: { id: string }) => x.id);

    it("status", async () => {
      expect(ids(await list(customer, "?status=archived"))).toEqual([archived.id]);
      expect(ids(await list(customer, "?status=active"))).toEqual([active.id, second.id]);
      expect(ids(await list(customer, "?status=active,archived"))).toEqual([active.id, second.id, archived.id]);
      // A bad entry of a comma-separated list is named by its index.
      expectFieldError(await list(customer, "?status=deleted"), "status[0]");
      expectFieldError(await list(customer, "?status=active,gone"), "status[1]");
    });

    it("id, which still applies the default status", async () => {
      expect(ids(await list(customer, `?id=${second.id}`))).toEqual([second.id]);
      expect(ids(await list(customer, `?id=${active.id},${archived.id}`))).toEqual([active.id]);
      expect(ids(await list(customer, `?id=${active.id},${archived.id}&status=active,archived`))).toEqual([
        active.id,
        archived.id,
      ]);
      expectFieldError(await list(customer, "?id=ctm_01aaaaaaaaaaaaaaaaaaaaaaaa"), "id[0]");
      expectFieldError(await list(customer, `?id=${active.id},nope`), "id[1]");
    });

    it.each([
      ["head office", "description", "active"],
      ["JEFFERSON", "first_line", "active"],
      ["flat 3", "second_line", "second"],
      ["york", "city", "active"],
      ["Ny", "region", "active"],
      ["0021", "postal_code", "active"],
      ["sw1a", "postal_code", "second"],
    ])("search %j matches %s, without regard to case", async (term, _field, which) => {
      const res = await list(customer, `?search=${encodeURIComponent(term)}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([which === "active" ? active.id : second.id]);
    });

    it("search matches the ID and combines with status", async () => {
      expect(ids(await list(customer, `?search=${second.id}`))).toEqual([second.id]);
      expect(ids(await list(customer, "?search=g%C3%B6teborg"))).toEqual([]);
      expect(ids(await list(customer, "?search=g%C3%B6teborg&status=archived"))).toEqual([archived.id]);
      expect(ids(await list(customer, "?search=nothing-matches"))).toEqual([]);
    });

    it("search is at most 100 characters", async () => {
      expect((await list(customer, `?search=${"a".repeat(100)}`)).status).toBe(200);
      expectFieldError(await list(customer, `?search=${"a".repeat(101)}`), "search");
    });

    it("order_by accepts only id", async () => {
      expect(ids(await list(customer, "?order_by=id[DESC]"))).toEqual([second.id, active.id]);
      expect(ids(await list(customer, "?order_by=id[ASC]"))).toEqual([active.id, second.id]);
      expectFieldError(await list(customer, "?order_by=city[ASC]"), "order_by");
      expectFieldError(await list(customer, "?order_by=id"), "order_by");
    });
  });

  it("pages with per_page and after, and caps per_page at 200", async () => {
    const customer = await newCustomer();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await address(customer, { country_code: "SE", city: `c${i}` })).id);

    const first = await list(customer, "?per_page=2");
    expect(first.body.data.map((x: { id: string }) => x.id)).toEqual(created.slice(0, 2));
    expect(first.body.meta.pagination).toMatchObject({ per_page: 2, has_more: true, estimated_total: 5 });
    const next = new URL(first.body.meta.pagination.next);
    expect(next.searchParams.get("after")).toBe(created[1]);
    expect(next.searchParams.get("per_page")).toBe("2");

    const second = await list(customer, `?per_page=2&after=${created[1]}`);
    expect(second.body.data.map((x: { id: string }) => x.id)).toEqual(created.slice(2, 4));
    const third = await list(customer, `?per_page=2&after=${created[3]}`);
    expect(third.body.data.map((x: { id: string }) => x.id)).toEqual([created[4]]);
    expect(third.body.meta.pagination.has_more).toBe(false);

    const desc = await list(customer, `?order_by=id[DESC]&after=${created[2]}`);
    expect(desc.body.data.map((x: { id: string }) => x.id)).toEqual([created[1], created[0]]);

    expect((await list(customer, "?per_page=500")).body.meta.pagination.per_page).toBe(200);
    expectFieldError(await list(customer, "?per_page=0"), "per_page");
    expectFieldError(await list(customer, "?per_page=abc"), "per_page");
  });
});

describeChildEntityAccess({
  entity: "address",
  named: "an address",
  path: "addresses",
  idParam: "address_id",
  api: { create, list, get, update },
  collection: many,
  item: one,
  customer: () => customerId,
  newCustomer,
  make: (customer) => address(customer),
  makeForeign: (customer) => address(customer),
  createBody: { country_code: "SE" },
  updateBody: { city: "x" },
  hijackBody: { city: "Hijacked" },
  otherPermissions: ["customer.read", "customer.write", "business.write"],
  unknownCustomer: UNKNOWN_CUSTOMER,
  unknownId: UNKNOWN_ADDRESS,
  malformedCustomers: ["ctm_123", "CTM_01AAAAAAAAAAAAAAAAAAAAAAAA", "add_01aaaaaaaaaaaaaaaaaaaaaaaa"],
  malformedIds: ["add_123", "biz_01aaaaaaaaaaaaaaaaaaaaaaaa", "ADD_01AAAAAAAAAAAAAAAAAAAAAAAA"],
});
