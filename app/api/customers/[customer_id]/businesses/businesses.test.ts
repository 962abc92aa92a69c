/**
 * Integration tests of the business endpoints: the real route handlers on a real PostgreSQL.
 *   GET/POST  /customers/{customer_id}/businesses
 *   GET/PATCH /customers/{customer_id}/businesses/{business_id}
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/connection";
import { query } from "@/lib/db/sql";
import { type ApiResult, expectError, expectFieldError } from "@/lib/dev/test/api";
import { events, expectMaxLength } from "@/lib/dev/test/checks";
import { describeChildEntityAccess } from "@/lib/dev/test/child-entity";
import { childResource } from "@/lib/dev/test/resource";
import { createCustomer } from "@/lib/services/customers";
import * as one from "./[business_id]/route";
import * as many from "./route";

const BUSINESS_FIELDS = [
  "id",
  "customer_id",
  "name",
  "company_number",
  "tax_identifier",
  "status",
  "contacts",
  "created_at",
  "updated_at",
  "custom_data",
  "import_meta",
];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UNKNOWN_CUSTOMER = "ctm_01aaaaaaaaaaaaaaaaaaaaaaaa";
const UNKNOWN_BUSINESS = "biz_01aaaaaaaaaaaaaaaaaaaaaaaa";

let customerId: string;
let counter = 0;

async function newCustomer(): Promise<string> {
  counter += 1;
  const customer = await createCustomer({ email: `business-test-${counter}@example.com` });
  return customer.parse().id;
}

const { create, list, get, update } = childResource(
  "/customers",
  "customer_id",
  "businesses",
  "business_id",
  many,
  one,
);

/** Creates a business and returns it (fails the test when creation fails). */
async function business(customer: string, body: Record<string, unknown> = { name: "Acme Ltd" }) {
  const res = await create(customer, body);
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
}

function contactList(n: number, domain = "example.com") {
  return Array.from({ length: n }, (_, i) => ({ name: `Contact ${i}`, email: `contact${i}@${domain}` }));
}

beforeAll(async () => {
  customerId = await newCustomer();
});

describe("POST /customers/{customer_id}/businesses", () => {
  it("creates a business with only a name: 201, the envelope, every field in spec order, defaults", async () => {
    const res = await create(customerId, { name: "Acme Ltd" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(typeof res.body.meta.request_id).toBe("string");
    const data = res.body.data;
    expect(Object.keys(data)).toEqual(BUSINESS_FIELDS);
    expect(data.id).toMatch(/^biz_[a-z0-9]{26}$/);
    expect(data).toMatchObject({
      customer_id: customerId,
      name: "Acme Ltd",
      company_number: null,
      tax_identifier: null,
      status: "active",
      contacts: [],
      custom_data: null,
      import_meta: null,
    });
    expect(data.created_at).toMatch(TIMESTAMP);
    expect(data.updated_at).toMatch(TIMESTAMP);
  });

  it("stores every field and emits business.created with the serialized business", async () => {
    const body = {
      name: "ChatApp Inc.",
      company_number: "555775291485",
      tax_identifier: "GB123456789",
      contacts: [{ name: "Parker Jones", email: "parker@example.com" }, { email: "accounts@example.com" }],
      custom_data: { crm_id: "x1", tags: ["a", "b"] },
    };
    const res = await create(customerId, body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...body,
      // A contact without a name has name "" (a string in the API family), in the same {name, email} shape.
      contacts: [
        { name: "Parker Jones", email: "parker@example.com" },
        { name: "", email: "accounts@example.com" },
      ],
    });
    for (const contact of res.body.data.contacts) expect(Object.keys(contact)).toEqual(["name", "email"]);
    expect((await get(customerId, res.body.data.id)).body.data).toEqual(res.body.data);

    const rows = await events(res.body.data.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.eventType).toBe("business.created");
    expect(rows[0]!.id).toMatch(/^evt_[a-z0-9]{26}$/);
    expect(rows[0]!.data).toEqual(res.body.data);
  });

  it("accepts null for the optional fields and for a contact's name", async () => {
    const res = await create(customerId, {
      name: "Nulls Ltd",
      company_number: null,
      tax_identifier: null,
      custom_data: null,
      contacts: [{ name: null, email: "nobody@example.com" }],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.contacts).toEqual([{ name: "", email: "nobody@example.com" }]);
  });

  it('answers a contact stored without a name (null, as stored before) with name ""', async () => {
    const created = await business(customerId, { name: "Old contacts" });
    await query("UPDATE businesses SET contacts = $2::jsonb WHERE id = $1", [
      created.id,
      JSON.stringify([{ name: null, email: "old@example.com" }, { email: "older@example.com" }]),
    ]);
    expect((await get(customerId, created.id)).body.data.contacts).toEqual([
      { name: "", email: "old@example.com" },
      { name: "", email: "older@example.com" },
    ]);
  });

  describe("name", () => {
    it("is required", async () => {
      expectFieldError(await create(customerId, { company_number: "1" }), "name");
    });

    it("accepts 1 and 1024 characters", async () => {
      expect((await create(customerId, { name: "A" })).status).toBe(201);
      const res = await create(customerId, { name: "n".repeat(1024) });
      expect(res.status).toBe(201);
      expect(res.body.data.name).toBe("n".repeat(1024));
    });

    it.each([["n".repeat(1025)], [""], ["   "], ["\t\n"], [null], [7]])("rejects %j", async (name) => {
      const res = await create(customerId, { name });
      expectFieldError(res, "name");
      // Every error names `name` ("" breaks both the length and the non-whitespace rule).
      expect(new Set(res.body.error.errors.map((e: { field: string }) => e.field))).toEqual(new Set(["name"]));
    });
  });

  describe.each(["company_number", "tax_identifier"])("%s", (field) => {
    it("accepts 1024 characters and rejects 1025", async () => {
      const send = (value: string) => create(customerId, { name: "Acme", [field]: value });
      const { refused } = await expectMaxLength(send, field, 1024, { status: 201, char: "9" });
      expect(refused.body.error.errors).toHaveLength(1);
    });

    it("rejects a non-string", async () => {
      expectFieldError(await create(customerId, { name: "Acme", [field]: 123 }), field);
    });
  });

  describe("contacts", () => {
    it("accepts 100 contacts and keeps their order", async () => {
      const contacts = contactList(100);
      const res = await create(customerId, { name: "Big Co", contacts });
      expect(res.status).toBe(201);
      expect(res.body.data.contacts).toEqual(contacts);
    });

    it("rejects 101 contacts", async () => {
      const res = await create(customerId, { name: "Big Co", contacts: contactList(101) });
      expectFieldError(res, "contacts");
      expect(res.body.error.errors).toHaveLength(1);
    });

    it("rejects a repeated email, without regard to case, naming the repeat", async () => {
      const res = await create(customerId, {
        name: "Dup Co",
        contacts: [
          { name: "A", email: "a@example.com" },
          { name: "B", email: "b@example.com" },
          { name: "A again", email: "A@Example.COM" },
          { email: "b@example.com" },
        ],
      });
      expectFieldError(res, "contacts[2].email");
      expectFieldError(res, "contacts[3].email");
      expect(res.body.error.errors).toHaveLength(2);
      expect(res.body.error.errors[0].message).toContain("contacts[0].email");
    });

    it.each([["not-an-email"], [""], ["a@"], [null], [42], [`${"a".repeat(315)}@x.com`]])(
      "rejects the email %j",
      async (email) => {
        const res = await create(customerId, {
          name: "Bad Co",
          contacts: [
            { name: "ok", email: "ok@example.com" },
            { name: "bad", email },
          ],
        });
        expectFieldError(res, "contacts[1].email");
      },
    );

    it("reports a bad entry together with too many entries or a repeat, never a 500", async () => {
      const many = [...contactList(101), { email: 5 }];
      expectFieldError(await create(customerId, { name: "Co", contacts: many }), "contacts");
      const mixed = [{ email: "a@example.com" }, { email: null }, { email: "A@example.com" }];
      expectFieldError(await create(customerId, { name: "Co", contacts: mixed }), "contacts[1].email");
    });

    it("requires an email in each contact", async () => {
      expectFieldError(
        await create(customerId, { name: "Bad Co", contacts: [{ name: "No Mail" }] }),
        "contacts[0].email",
      );
    });

    it("limits a contact's name to 1024 characters", async () => {
      const ok = await create(customerId, {
        name: "Co",
        contacts: [{ name: "c".repeat(1024), email: "c@example.com" }],
      });
      expect(ok.status).toBe(201);
      const res = await create(customerId, {
        name: "Co",
        contacts: [{ name: "c".repeat(1025), email: "c@example.com" }],
      });
      expectFieldError(res, "contacts[0].name");
    });

    it.each([[null], ["a@example.com"], [{ email: "a@example.com" }], [["a@example.com"]]])(
      "rejects contacts %j",
      async (contacts) => {
        const res = await create(customerId, { name: "Co", contacts });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("invalid_field");
        expect(res.body.error.errors[0].field).toMatch(/^contacts/);
      },
    );
  });

  describe("custom_data", () => {
    it.each([[[1, 2]], ["text"], [42], [false]])("rejects %j", async (value) => {
      expectFieldError(await create(customerId, { name: "Co", custom_data: value }), "custom_data");
    });
  });

  it("rejects fields the business does not have", async () => {
    expectError(await create(customerId, { name: "Co", status: "archived" }), 400, "invalid_field");
  });

  it("writes no business and no event when validation fails", async () => {
    const before = await db().business.count();
    const eventsBefore = await db().event.count({ where: { eventType: "business.created" } });
    await create(customerId, { name: "Dup", contacts: [{ email: "x@example.com" }, { email: "X@example.com" }] });
    expect(await db().business.count()).toBe(before);
    expect(await db().event.count({ where: { eventType: "business.created" } })).toBe(eventsBefore);
  });
});

describe("GET /customers/{customer_id}/businesses/{business_id}", () => {
  it("returns the business", async () => {
    const created = await business(customerId, { name: "Get Co", contacts: [{ email: "get@example.com" }] });
    const res = await get(customerId, created.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.data)).toEqual(BUSINESS_FIELDS);
    expect(res.body.data).toEqual(created);
  });
});

describe("PATCH /customers/{customer_id}/businesses/{business_id}", () => {
  it("changes only the fields sent and emits business.updated", async () => {
    const created = await business(customerId, {
      name: "Old Name",
      company_number: "123",
      contacts: [{ name: "Keep", email: "keep@example.com" }],
      custom_data: { a: 1 },
    });
    const res = await update(customerId, created.id, { name: "New Name", tax_identifier: "DE999" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.data)).toEqual(BUSINESS_FIELDS);
    expect(res.body.data).toMatchObject({
      id: created.id,
      name: "New Name",
      company_number: "123",
      tax_identifier: "DE999",
      contacts: [{ name: "Keep", email: "keep@example.com" }],
      custom_data: { a: 1 },
      created_at: created.created_at,
    });

    const rows = await events(created.id);
    expect(rows.map((row) => row.eventType)).toEqual(["business.created", "business.updated"]);
    expect(rows[1]!.data).toEqual(res.body.data);
    expect((await get(customerId, created.id)).body.data).toEqual(res.body.data);
  });

  it("replaces the whole contacts list, and [] clears it", async () => {
    const created = await business(customerId, { name: "Contacts Co", contacts: contactList(3) });
    const replaced = await update(customerId, created.id, { contacts: [{ email: "only@example.com" }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.contacts).toEqual([{ name: "", email: "only@example.com" }]);
    const cleared = await update(customerId, created.id, { contacts: [] });
    expect(cleared.body.data.contacts).toEqual([]);
  });

  it("clears the nullable fields set to null", async () => {
    const created = await business(customerId, {
      name: "Nullable Co",
      company_number: "1",
      tax_identifier: "2",
      custom_data: { a: 1 },
    });
    const res = await update(customerId, created.id, { company_number: null, tax_identifier: null, custom_data: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ company_number: null, tax_identifier: null, custom_data: null });
  });

  it("archives and reactivates through status, with a business.updated event each time", async () => {
    const created = await business(customerId);
    const archived = await update(customerId, created.id, { status: "archived" });
    expect(archived.status).toBe(200);
    expect(archived.body.data.status).toBe("archived");
    expect((await update(customerId, created.id, { status: "active" })).body.data.status).toBe("active");

    const rows = await events(created.id);
    expect(rows.map((row) => [row.eventType, (row.data as { status: string }).status])).toEqual([
      ["business.created", "active"],
      ["business.updated", "archived"],
      ["business.updated", "active"],
    ]);
  });

  it("applies the same limits as creation", async () => {
    const created = await business(customerId);
    const send = (field: string) => (value: string) => update(customerId, created.id, { [field]: value });
    await expectMaxLength(send("name"), "name", 1024, { status: 200, char: "m" });
    expectFieldError(await update(customerId, created.id, { name: " " }), "name");
    expectFieldError(await update(customerId, created.id, { name: null }), "name");
    await expectMaxLength(send("company_number"), "company_number", 1024, { status: 200, char: "1" });
    await expectMaxLength(send("tax_identifier"), "tax_identifier", 1024, { status: 200, char: "1" });
    expect((await update(customerId, created.id, { contacts: contactList(100) })).status).toBe(200);
    expectFieldError(await update(customerId, created.id, { contacts: contactList(101) }), "contacts");
    expectFieldError(
      await update(customerId, created.id, { contacts: [{ email: "x@example.com" }, { email: "X@EXAMPLE.com" }] }),
      "contacts[1].email",
    );
    expectFieldError(await update(customerId, created.id, { contacts: [{ email: "nope" }] }), "contacts[0].email");
    expectFieldError(await update(customerId, created.id, { custom_data: [1] }), "custom_data");
    expectFieldError(await update(customerId, created.id, { status: "deleted" }), "status");
    expectFieldError(await update(customerId, created.id, { status: null }), "status");
  });

  it("leaves the business and the events unchanged when validation fails", async () => {
    const created = await business(customerId, { name: "Stable Co" });
    expectFieldError(await update(customerId, created.id, { name: "" }), "name");
    expect((await get(customerId, created.id)).body.data).toEqual(created);
    expect((await events(created.id)).map((row) => row.eventType)).toEqual(["business.created"]);
  });
});

describe("GET /customers/{customer_id}/businesses", () => {
  it("lists the customer's active businesses in ID order with pagination meta", async () => {
    const customer = await newCustomer();
    const a = await business(customer, { name: "Alpha" });
    const b = await business(customer, { name: "Beta" });
    const archived = await business(customer, { name: "Gamma" });
    await update(customer, archived.id, { status: "archived" });
    // Another customer's business never shows.
    await business(customerId);

    const res = await list(customer);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(res.body.data.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    expect(Object.keys(res.body.data[0])).toEqual(BUSINESS_FIELDS);
    expect(res.body.data[0]).toEqual(a);
    expect(res.body.meta.pagination).toEqual({
      per_page: 50,
      next: expect.stringContaining(`after=${b.id}`),
      has_more: false,
      estimated_total: 2,
    });
  });

  it("returns an empty page for a customer without businesses", async () => {
    const res = await list(await newCustomer());
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.pagination).toMatchObject({ has_more: false, estimated_total: 0 });
  });

  describe("filters", () => {
    let customer: string;
    let first: Record<string, any>;
    let second: Record<string, any>;
    let archived: Record<string, any>;

    beforeAll(async () => {
      customer = await newCustomer();
      first = await business(customer, {
        name: "Northwind Traders",
        company_number: "NW-0042",
        tax_identifier: "GB111",
      });
      second = await business(customer, { name: "Contoso", company_number: "C-77", tax_identifier: "FR22334455" });
      archived = await business(customer, { name: "Fabrikam" });
      await update(customer, archived.id, { status: "archived" });
    });

    const ids = (res: ApiResult) => res.body.data.map((x: { id: string }) => x.id);

    it("status", async () => {
      expect(ids(await list(customer, "?status=archived"))).toEqual([archived.id]);
      expect(ids(await list(customer, "?status=active"))).toEqual([first.id, second.id]);
      expect(ids(await list(customer, "?status=archived,active"))).toEqual([first.id, second.id, archived.id]);
      // A bad entry of a comma-separated list is named by its index.
      expectFieldError(await list(customer, "?status=deleted"), "status[0]");
    });

    it("id, which still applies the default status", async () => {
      expect(ids(await list(customer, `?id=${second.id}`))).toEqual([second.id]);
      expect(ids(await list(customer, `?id=${first.id},${archived.id}`))).toEqual([first.id]);
      expect(ids(await list(customer, `?id=${first.id},${archived.id}&status=active,archived`))).toEqual([
        first.id,
        archived.id,
      ]);
      expectFieldError(await list(customer, "?id=add_01aaaaaaaaaaaaaaaaaaaaaaaa"), "id[0]");
    });

    it.each([
      ["northwind", "name", "first"],
      ["CONTOSO", "name", "second"],
      ["nw-00", "company_number", "first"],
      ["c-77", "company_number", "second"],
      ["gb1", "tax_identifier", "first"],
      ["fr2233", "tax_identifier", "second"],
    ])("search %j matches %s, without regard to case", async (term, _field, which) => {
      const res = await list(customer, `?search=${encodeURIComponent(term)}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([which === "first" ? first.id : second.id]);
    });

    it("search matches the ID and combines with status", async () => {
      expect(ids(await list(customer, `?search=${second.id}`))).toEqual([second.id]);
      expect(ids(await list(customer, "?search=fabrikam"))).toEqual([]);
      expect(ids(await list(customer, "?search=fabrikam&status=archived"))).toEqual([archived.id]);
    });

    it("search is at most 100 characters", async () => {
      expect((await list(customer, `?search=${"a".repeat(100)}`)).status).toBe(200);
      expectFieldError(await list(customer, `?search=${"a".repeat(101)}`), "search");
    });

    it("order_by accepts only id", async () => {
      expect(ids(await list(customer, "?order_by=id[DESC]"))).toEqual([second.id, first.id]);
      expectFieldError(await list(customer, "?order_by=name[ASC]"), "order_by");
    });
  });

  it("pages with per_page and after, and caps per_page at 200", async () => {
    const customer = await newCustomer();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await business(customer, { name: `B${i}` })).id);

    const page1 = await list(customer, "?per_page=2");
    expect(page1.body.data.map((x: { id: string }) => x.id)).toEqual(created.slice(0, 2));
    expect(page1.body.meta.pagination).toMatchObject({ per_page: 2, has_more: true, estimated_total: 5 });
    const next = new URL(page1.body.meta.pagination.next);
    expect(next.searchParams.get("after")).toBe(created[1]);

    const page2 = await list(customer, `?per_page=2&after=${created[1]}`);
    expect(page2.body.data.map((x: { id: string }) => x.id)).toEqual(created.slice(2, 4));
    const page3 = await list(customer, `?per_page=2&after=${created[3]}`);
    expect(page3.body.data.map((x: { id: string }) => x.id)).toEqual([created[4]]);
    expect(page3.body.meta.pagination.has_more).toBe(false);

    expect((await list(customer, "?per_page=201")).body.meta.pagination.per_page).toBe(200);
    expectFieldError(await list(customer, "?per_page=0"), "per_page");
  });
});

describeChildEntityAccess({
  entity: "business",
  named: "a business",
  path: "businesses",
  idParam: "business_id",
  api: { create, list, get, update },
  collection: many,
  item: one,
  customer: () => customerId,
  newCustomer,
  make: (customer) => business(customer),
  makeForeign: (customer) => business(customer, { name: "Foreign Co" }),
  createBody: { name: "x" },
  updateBody: { name: "x" },
  hijackBody: { name: "Hijacked" },
  otherPermissions: ["customer.read", "customer.write", "address.write"],
  unknownCustomer: UNKNOWN_CUSTOMER,
  unknownId: UNKNOWN_BUSINESS,
  malformedCustomers: ["ctm_123", "CTM_01AAAAAAAAAAAAAAAAAAAAAAAA", "biz_01aaaaaaaaaaaaaaaaaaaaaaaa"],
  malformedIds: ["biz_123", "add_01aaaaaaaaaaaaaaaaaaaaaaaa", "BIZ_01AAAAAAAAAAAAAAAAAAAAAAAA"],
});
