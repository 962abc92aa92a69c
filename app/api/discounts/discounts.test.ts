/**
 * Every discount endpoint, through the real route handlers on a real database.
 *   GET/POST  /discounts
 *   GET/PATCH /discounts/{discount_id}   (PATCH also as /discounts/{dsc_…}@{dscrev_…})
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/connection";
import { type ApiResult, call, errorFields, expectError, nextPath, testKey } from "@/lib/dev/test/api";
import {
  events,
  expectAllowed,
  expectForbidden,
  expectMethodsNotAllowed,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { admin, ids as listIds, resource } from "@/lib/dev/test/resource";
import { newId } from "@/lib/ids";
import * as item from "./[discount_id]/route";
import * as collection from "./route";

const FIELDS = [
  "id",
  "status",
  "description",
  "enabled_for_checkout",
  "code",
  "type",
  "mode",
  "amount",
  "currency_code",
  "recur",
  "maximum_recurring_intervals",
  "usage_limit",
  "restrict_to",
  "expires_at",
  "times_used",
  "discount_group_id",
  "custom_data",
  "import_meta",
  "created_at",
  "updated_at",
];
const GROUP_FIELDS = ["id", "name", "status", "import_meta", "created_at", "updated_at"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const REVISION = /^dscrev_[a-z0-9]{26}$/;
const MAX_INT = 2_147_483_647;
const FUTURE = "2099-12-31T23:59:59Z";

let seq = 0;
/** A code no other test uses. */
function uniqueCode(tag = "C"): string {
  seq += 1;
  return `${tag}${seq}T${Date.now().toString(36)}`.toUpperCase();
}

const PERCENT = { description: "Ten percent", type: "percentage", amount: "10" };
const FLAT = { description: "Five dollars", type: "flat", amount: "500", currency_code: "USD" };

const { create, get, update, list } = resource("/discounts", "discount_id", collection, item);

async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await create({ ...PERCENT, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The Service-Revision-Id header of a GET or PATCH answer: the discount's current revision. */
function revisionOf(res: ApiResult): string {
  const revision = res.headers.get("service-revision-id");
  expect(revision, JSON.stringify(res.body)).toMatch(REVISION);
  return revision as string;
}

/** A discount's current revision, as GET answers it. */
async function revisionNow(id: string): Promise<string> {
  return revisionOf(await get(id));
}

function ids(res: ApiResult): string[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return listIds(res);
}

/** Expects a 400 invalid_field naming exactly `fields` (in any order). */
function expectFields(res: ApiResult, fields: string[]) {
  expectError(res, 400, "invalid_field");
  expect(new Set(errorFields(res))).toEqual(new Set(fields));
}

async function newProduct(status = "active"): Promise<string> {
  const id = newId("pro");
  await db().product.create({ data: { id, name: "Product", taxCategory: "standard", status } });
  return id;
}

async function newPrice(productId: string): Promise<string> {
  const id = newId("pri");
  await db().price.create({
    data: { id, productId, description: "Monthly", unitPriceAmount: 1000n, unitPriceCurrency: "USD" },
  });
  return id;
}

async function newGroup(name = "Group", status = "active"): Promise<string> {
  const id = newId("dsg");
  await db().discountGroup.create({ data: { id, name, status } });
  return id;
}

let productId: string;
let priceId: string;

beforeAll(async () => {
  productId = await newProduct();
  priceId = await newPrice(productId);
});

describe("POST /discounts", () => {
  it("creates a percentage discount: 201, the envelope, the spec's fields in order (no revision_id); defaults", async () => {
    const res = await create({ description: "Launch", type: "percentage", amount: "10" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(typeof res.body.meta.request_id).toBe("string");
    const d = res.body.data;
    expect(Object.keys(d)).toEqual(FIELDS);
    expect(d.id).toMatch(/^dsc_[a-z0-9]{26}$/);
    expect(d).toMatchObject({
      status: "active",
      description: "Launch",
      // As in the API family: enabled for checkout by default, with a generated code.
      enabled_for_checkout: true,
      type: "percentage",
      mode: "standard",
      amount: "10",
      currency_code: null,
      recur: false,
      maximum_recurring_intervals: null,
      usage_limit: null,
      restrict_to: null,
      expires_at: null,
      times_used: 0,
      discount_group_id: null,
      custom_data: null,
      import_meta: null,
    });
    expect(d.code).toMatch(/^[A-Z0-9]{10}$/);
    expect(await revisionNow(d.id)).toMatch(REVISION);
    expect(d.created_at).toMatch(TIMESTAMP);
    expect(d.updated_at).toBe(d.created_at);
    expect((await get(d.id)).body.data).toEqual(d);
  });

  it("generates a different code each time, and none when not enabled for checkout", async () => {
    const a = await createOk();
    const b = await createOk();
    expect(a.code).not.toBe(b.code);
    const off = await createOk({ enabled_for_checkout: false });
    expect(off.code).toBeNull();
    const offNull = await createOk({ enabled_for_checkout: false, code: null });
    expect(offNull.code).toBeNull();
    const onNull = await createOk({ enabled_for_checkout: true, code: null });
    expect(onNull.code).toMatch(/^[A-Z0-9]{10}$/);
  });

  it("stores every field given", async () => {
    const group = await newGroup();
    const code = uniqueCode("All");
    const body = {
      description: "Everything",
      type: "flat_per_seat",
      amount: "1250",
      currency_code: "EUR",
      enabled_for_checkout: false,
      code,
      mode: "custom",
      recur: true,
      maximum_recurring_intervals: 3,
      usage_limit: 100,
      restrict_to: [priceId, productId],
      expires_at: "2099-06-30T12:00:00+02:00",
      discount_group_id: group,
      custom_data: { campaign: "spring", n: [1, 2] },
    };
    const res = await create(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      ...body,
      // Timestamps come back in UTC with microseconds.
      expires_at: "2099-06-30T10:00:00.000000Z",
      status: "active",
      times_used: 0,
    });
  });

  describe("description", () => {
    it("accepts 1 and 500 characters", async () => {
      expect((await createOk({ description: "D" })).description).toBe("D");
      expect((await createOk({ description: "d".repeat(500) })).description).toBe("d".repeat(500));
    });

    it.each([["d".repeat(501)], [""], ["   "], [null], [42]])("refuses %j", async (description) => {
      expectFields(await create({ ...PERCENT, description }), ["description"]);
    });

    it("is required", async () => {
      expectFields(await create({ type: "percentage", amount: "10" }), ["description"]);
    });
  });

  describe("type", () => {
    it("is required and must be percentage, flat or flat_per_seat", async () => {
      expectFields(await create({ description: "x", amount: "10" }), ["type"]);
      for (const type of ["fixed", "PERCENTAGE", null, 1]) {
        expectFields(await create({ ...PERCENT, type }), ["type"]);
      }
      for (const type of ["flat", "flat_per_seat"]) {
        expect((await createOk({ ...FLAT, type })).type).toBe(type);
      }
    });
  });

  describe("amount of a percentage discount", () => {
    it.each([
      ["0.01", "0.01"],
      ["100", "100"],
      ["100.00", "100"],
      ["12.5", "12.5"],
      ["12.50", "12.5"],
      ["010", "10"],
      ["99.99", "99.99"],
      ["1.0", "1"],
    ])("accepts %j and returns it as %j", async (amount, expected) => {
      const d = await createOk({ amount });
      expect(d.amount).toBe(expected);
      expect((await get(d.id)).body.data.amount).toBe(expected);
    });

    it.each([
      ["0"],
      ["0.00"],
      ["0.009"],
      ["0.001"],
      ["100.01"],
      ["101"],
      ["1000"],
      ["10.555"],
      ["-1"],
      ["1e2"],
      [" 10"],
      ["10."],
      [".5"],
      ["abc"],
      [""],
      [10],
      [null],
    ])("refuses %j with invalid_field on amount", async (amount) => {
      expectFields(await create({ ...PERCENT, amount }), ["amount"]);
    });

    it("is required", async () => {
      expectFields(await create({ description: "x", type: "percentage" }), ["amount"]);
    });
  });

  describe("amount of a flat discount", () => {
    it.each([
      ["1", "1"],
      ["999999999999999999", "999999999999999999"],
      ["0001", "1"],
      ["5000", "5000"],
    ])("accepts %j (minor units) and returns %j", async (amount, expected) => {
      expect((await createOk({ ...FLAT, amount })).amount).toBe(expected);
      expect((await createOk({ ...FLAT, type: "flat_per_seat", amount })).amount).toBe(expected);
    });

    it.each([["0"], ["000"], ["1.5"], ["10.00"], ["1000000000000000000"], ["-5"], ["1,000"], [500]])(
      "refuses %j with invalid_field on amount",
      async (amount) => {
        expectFields(await create({ ...FLAT, amount }), ["amount"]);
        expectFields(await create({ ...FLAT, type: "flat_per_seat", amount }), ["amount"]);
      },
    );

    it("takes amounts above 100 that a percentage cannot have", async () => {
      expect((await createOk({ ...FLAT, amount: "150" })).amount).toBe("150");
      expectFields(await create({ ...PERCENT, amount: "150" }), ["amount"]);
    });
  });

  describe("currency_code", () => {
    it("is required for flat and flat_per_seat discounts", async () => {
      for (const type of ["flat", "flat_per_seat"]) {
        const res = await create({ description: "x", type, amount: "100" });
        expectFields(res, ["currency_code"]);
        expect(res.body.error.errors[0].message).toContain(type);
        expectFields(await create({ description: "x", type, amount: "100", currency_code: null }), ["currency_code"]);
      }
    });

    it("is accepted and not kept for percentage discounts (the family's Python SDK always sends it)", async () => {
      expect((await createOk({ ...PERCENT, currency_code: "USD" })).currency_code).toBeNull();
      expect((await createOk({ currency_code: null })).currency_code).toBeNull();
      expectFields(await create({ ...PERCENT, currency_code: "XXX" }), ["currency_code"]);
    });

    it("is dropped when a PATCH makes a flat discount a percentage one", async () => {
      const flat = await createOk({ ...FLAT, currency_code: "EUR" });
      const res = await update(flat.id, { type: "percentage", amount: "10", currency_code: "EUR" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.currency_code).toBeNull();
      const back = await update(flat.id, { type: "flat", amount: "100" });
      expectFields(back, ["currency_code"]);
    });

    it("must be a supported currency", async () => {
      for (const currency_code of ["XXX", "usd", "US", 840]) {
        expectFields(await create({ ...FLAT, currency_code }), ["currency_code"]);
      }
      for (const currency_code of ["JPY", "GBP", "KRW"]) {
        expect((await createOk({ ...FLAT, currency_code })).currency_code).toBe(currency_code);
      }
    });
  });

  describe("code", () => {
    it("accepts letters and digits, 1 to 32 characters, keeping their case", async () => {
      expect((await createOk({ code: "q" })).code).toBe("q");
      const long = `Ab${uniqueCode()}`.padEnd(32, "x");
      expect(long).toHaveLength(32);
      expect((await createOk({ code: long })).code).toBe(long);
    });

    it.each([["x".repeat(33)], [""], ["TWO WORDS"], ["dash-code"], ["under_score"], ["ÜBER10"], [" LEAD"], [10]])(
      "refuses %j with invalid_field on code",
      async (code) => {
        expectFields(await create({ ...PERCENT, code }), ["code"]);
      },
    );

    it("can be set on a discount not enabled for checkout", async () => {
      const code = uniqueCode();
      expect(await createOk({ code, enabled_for_checkout: false })).toMatchObject({
        code,
        enabled_for_checkout: false,
      });
    });
  });

  describe("code uniqueness", () => {
    it("refuses a code in use, without regard to case: 409 conflict naming the holder", async () => {
      const code = uniqueCode("Summer");
      const holder = await createOk({ code });
      for (const again of [code, code.toLowerCase(), code.toUpperCase()]) {
        const res = await create({ ...PERCENT, code: again });
        const error = expectError(res, 409, "conflict");
        expect(error.detail).toContain(holder.id);
        expect(error.errors).toEqual([{ field: "code", message: expect.stringContaining(holder.id) }]);
      }
    });

    it("keeps the code held by an archived discount", async () => {
      const code = uniqueCode("Arch");
      const holder = await createOk({ code });
      await update(holder.id, { status: "archived" });
      expect(expectError(await create({ ...PERCENT, code }), 409, "conflict").detail).toContain(holder.id);
    });

    it("lets a code be reused once its holder's code is changed or cleared", async () => {
      const code = uniqueCode("Reuse");
      const holder = await createOk({ code });
      expectError(await create({ ...PERCENT, code }), 409, "conflict");
      expect((await update(holder.id, { code: uniqueCode("Moved") })).status).toBe(200);
      const second = await createOk({ code: code.toLowerCase() });
      expect(second.code).toBe(code.toLowerCase());
      expect((await update(second.id, { code: null, enabled_for_checkout: false })).body.data.code).toBeNull();
      expect((await createOk({ code })).code).toBe(code);
    });

    it("gives exactly one 201 for parallel creates of the same code, and 409 naming the winner for the rest", async () => {
      const code = uniqueCode("Race");
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => create({ ...PERCENT, code: i % 2 ? code : code.toLowerCase() })),
      );
      const created = results.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      const winner = created[0]!.body.data.id;
      for (const r of results.filter((r) => r.status !== 201)) {
        expect(expectError(r, 409, "conflict").detail).toContain(winner);
      }
      expect(await db().discount.count({ where: { code: { equals: code, mode: "insensitive" } } })).toBe(1);
    });
  });

  describe("mode", () => {
    it("is standard or custom", async () => {
      expect((await createOk({ mode: "custom" })).mode).toBe("custom");
      expect((await createOk({ mode: "standard" })).mode).toBe("standard");
      for (const mode of ["checkout_recovery", "", null]) expectFields(await create({ ...PERCENT, mode }), ["mode"]);
    });
  });

  describe("recur and maximum_recurring_intervals", () => {
    it("accepts maximum_recurring_intervals from 1 to 2147483647 with recur true, and null", async () => {
      for (const n of [1, 12, MAX_INT, null]) {
        expect(await createOk({ recur: true, maximum_recurring_intervals: n })).toMatchObject({
          recur: true,
          maximum_recurring_intervals: n,
        });
      }
      expect((await createOk({ recur: false, maximum_recurring_intervals: null })).recur).toBe(false);
    });

    it("needs recur true for maximum_recurring_intervals", async () => {
      const res = await create({ ...PERCENT, maximum_recurring_intervals: 3 });
      expectFields(res, ["maximum_recurring_intervals"]);
      expect(res.body.error.errors[0].message).toContain("recur");
      expectFields(await create({ ...PERCENT, recur: false, maximum_recurring_intervals: 3 }), [
        "maximum_recurring_intervals",
      ]);
    });

    it.each([[0], [-1], [MAX_INT + 1], [1.5], ["3"], [true]])("refuses maximum_recurring_intervals %j", async (n) => {
      expectFields(await create({ ...PERCENT, recur: true, maximum_recurring_intervals: n }), [
        "maximum_recurring_intervals",
      ]);
    });

    it("refuses a recur that is not a boolean", async () => {
      expectFields(await create({ ...PERCENT, recur: "yes" }), ["recur"]);
      expectFields(await create({ ...PERCENT, enabled_for_checkout: 1 }), ["enabled_for_checkout"]);
    });
  });

  describe("usage_limit", () => {
    it("accepts 1 to 2147483647 and null", async () => {
      for (const n of [1, MAX_INT, null]) expect((await createOk({ usage_limit: n })).usage_limit).toBe(n);
    });

    it.each([[0], [-5], [MAX_INT + 1], [2.5], ["10"]])("refuses %j", async (n) => {
      expectFields(await create({ ...PERCENT, usage_limit: n }), ["usage_limit"]);
    });
  });

  describe("restrict_to", () => {
    it("takes existing product and price IDs, in the order given", async () => {
      const archivedProduct = await newProduct("archived");
      const d = await createOk({ restrict_to: [productId, priceId, archivedProduct] });
      expect(d.restrict_to).toEqual([productId, priceId, archivedProduct]);
    });

    it("null and [] mean every product and price", async () => {
      expect((await createOk({ restrict_to: null })).restrict_to).toBeNull();
      expect((await createOk({ restrict_to: [] })).restrict_to).toBeNull();
    });

    it("names each unknown ID by its index", async () => {
      const res = await create({ ...PERCENT, restrict_to: [productId, newId("pro"), priceId, newId("pri")] });
      expectFields(res, ["restrict_to[1]", "restrict_to[3]"]);
      expect(res.body.error.errors[0].message).toContain("product");
      expect(res.body.error.errors[1].message).toContain("price");
    });

    it("refuses a repeated ID, naming the repeat", async () => {
      const res = await create({ ...PERCENT, restrict_to: [productId, priceId, productId] });
      expectFields(res, ["restrict_to[2]"]);
      expect(res.body.error.errors[0].message).toContain("restrict_to[0]");
    });

    it("refuses IDs of other entities and values that are not arrays", async () => {
      expectFields(await create({ ...PERCENT, restrict_to: [newId("ctm")] }), ["restrict_to[0]"]);
      expectFields(await create({ ...PERCENT, restrict_to: [productId, "pro_short"] }), ["restrict_to[1]"]);
      expectFields(await create({ ...PERCENT, restrict_to: productId }), ["restrict_to"]);
      expectFields(await create({ ...PERCENT, restrict_to: [42] }), ["restrict_to[0]"]);
    });
  });

  describe("expires_at", () => {
    it("takes an RFC 3339 date-time in the future, returned in UTC", async () => {
      expect((await createOk({ expires_at: FUTURE })).expires_at).toBe("2099-12-31T23:59:59.000000Z");
      expect((await createOk({ expires_at: "2099-01-01T00:00:00.123456-05:30" })).expires_at).toBe(
        "2099-01-01T05:30:00.123456Z",
      );
      const soon = new Date(Date.now() + 60_000).toISOString();
      expect((await createOk({ expires_at: soon })).status).toBe("active");
      expect((await createOk({ expires_at: null })).expires_at).toBeNull();
    });

    it.each([
      ["2000-01-01T00:00:00Z"],
      [new Date(Date.now() - 1000).toISOString()],
      ["2099-12-31"],
      ["2099-12-31 10:00:00"],
      ["2099-12-31T10:00:00"],
      ["2099-02-30T00:00:00Z"],
      ["tomorrow"],
      [4102444800],
    ])("refuses %j", async (expires_at) => {
      expectFields(await create({ ...PERCENT, expires_at }), ["expires_at"]);
    });
  });

  describe("discount_group_id", () => {
    it("takes an existing discount group, or null", async () => {
      const group = await newGroup();
      expect((await createOk({ discount_group_id: group })).discount_group_id).toBe(group);
      expect((await createOk({ discount_group_id: null })).discount_group_id).toBeNull();
    });

    it("refuses an unknown or malformed one", async () => {
      const res = await create({ ...PERCENT, discount_group_id: newId("dsg") });
      expectFields(res, ["discount_group_id"]);
      expectFields(await create({ ...PERCENT, discount_group_id: "dsg_nope" }), ["discount_group_id"]);
      expectFields(await create({ ...PERCENT, discount_group_id: newId("dsc") }), ["discount_group_id"]);
    });
  });

  describe("custom_data", () => {
    it("takes an object or null, and refuses anything else", async () => {
      expect((await createOk({ custom_data: { a: { b: 1 } } })).custom_data).toEqual({ a: { b: 1 } });
      expect((await createOk({ custom_data: null })).custom_data).toBeNull();
      for (const custom_data of [[1], "x", 3]) expectFields(await create({ ...PERCENT, custom_data }), ["custom_data"]);
    });
  });

  it("refuses unknown fields and fields set by the service", async () => {
    for (const extra of [{ status: "archived" }, { times_used: 3 }, { id: newId("dsc") }, { colour: "red" }]) {
      expectFields(await create({ ...PERCENT, ...extra }), Object.keys(extra));
    }
  });

  it("reports every invalid field at once, the cross-field rules included", async () => {
    const res = await create({
      description: "",
      type: "flat",
      amount: "1.5",
      recur: false,
      maximum_recurring_intervals: 2,
      usage_limit: 0,
      code: "no spaces allowed",
    });
    expectFields(res, ["description", "amount", "currency_code", "maximum_recurring_intervals", "usage_limit", "code"]);
  });

  it("reports unknown IDs together", async () => {
    const res = await create({ ...PERCENT, restrict_to: [newId("pro")], discount_group_id: newId("dsg") });
    expectFields(res, ["restrict_to[0]", "discount_group_id"]);
  });

  it("writes no discount and no event when refused", async () => {
    const discounts = await db().discount.count();
    const eventCount = await db().event.count();
    expectError(await create({ ...PERCENT, amount: "101" }), 400, "invalid_field");
    expectError(await create({ ...PERCENT, restrict_to: [newId("pro")] }), 400, "invalid_field");
    const code = uniqueCode();
    await createOk({ code });
    expectError(await create({ ...PERCENT, code }), 409, "conflict");
    expect(await db().discount.count()).toBe(discounts + 1);
    expect(await db().event.count()).toBe(eventCount + 1);
  });
});

describe("GET /discounts/{discount_id}", () => {
  it("returns the discount", async () => {
    const d = await createOk({ ...FLAT, code: uniqueCode() });
    const res = await get(d.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toEqual(d);
  });

  it("accepts the revision form and returns the discount as it is now, its revision in Service-Revision-Id", async () => {
    const d = await createOk();
    const revision = await revisionNow(d.id);
    const same = await get(`${d.id}@${revision}`);
    expect(same.body.data).toEqual(d);
    expect(revisionOf(same)).toBe(revision);
    const changed = await update(d.id, { description: "Changed" });
    const res = await get(`${d.id}@${revision}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(changed.body.data);
    expect(revisionOf(res)).not.toBe(revision);
    expect(revisionOf(res)).toBe(revisionOf(changed));
  });

  it("adds revision_id (ours) only with include=revision, after the group", async () => {
    const group = await newGroup("With revision");
    const d = await createOk({ discount_group_id: group });
    const res = await get(d.id, "?include=revision");
    expect(Object.keys(res.body.data)).toEqual([...FIELDS, "revision_id"]);
    expect(res.body.data.revision_id).toBe(revisionOf(res));
    const both = await get(d.id, "?include=revision,discount_group");
    expect(Object.keys(both.body.data)).toEqual([...FIELDS, "discount_group", "revision_id"]);
    expect(both.body.data.revision_id).toBe(revisionOf(res));
    // Lists too; never in the default answer, the events or a transaction's included discount.
    const listed = await list(`?id=${d.id}&include=revision`);
    expect(listed.body.data[0].revision_id).toBe(revisionOf(res));
    expect((await list(`?id=${d.id}`)).body.data[0]).not.toHaveProperty("revision_id");
    for (const event of await events(d.id)) expect(event.data).not.toHaveProperty("revision_id");
  });

  it("adds the discount group with include=discount_group", async () => {
    const group = await newGroup("Included");
    const d = await createOk({ discount_group_id: group });
    const res = await get(d.id, "?include=discount_group");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual([...FIELDS, "discount_group"]);
    expect(Object.keys(res.body.data.discount_group)).toEqual(GROUP_FIELDS);
    expect(res.body.data.discount_group).toMatchObject({ id: group, name: "Included", status: "active" });
    const none = await createOk();
    expect((await get(none.id, "?include=discount_group")).body.data.discount_group).toBeNull();
    const bad = await get(d.id, "?include=prices");
    expectError(bad, 400, "invalid_field");
    expect(errorFields(bad)[0]).toMatch(/^include/);
  });

  it("reports expired once expires_at has passed and used once times_used reaches usage_limit", async () => {
    const expiring = await createOk({ expires_at: FUTURE });
    await db().discount.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await get(expiring.id)).body.data.status).toBe("expired");

    const limited = await createOk({ usage_limit: 2 });
    await db().discount.update({ where: { id: limited.id }, data: { timesUsed: 1 } });
    expect((await get(limited.id)).body.data).toMatchObject({ status: "active", times_used: 1 });
    await db().discount.update({ where: { id: limited.id }, data: { timesUsed: 2 } });
    expect((await get(limited.id)).body.data).toMatchObject({ status: "used", times_used: 2 });

    // Archived wins over both.
    await db().discount.update({ where: { id: limited.id }, data: { status: "archived" } });
    expect((await get(limited.id)).body.data.status).toBe("archived");
  });

  it("is 404 for unknown or malformed IDs and revision forms", async () => {
    const d = await createOk();
    const revision = await revisionNow(d.id);
    for (const id of [
      newId("dsc"),
      `${newId("dsc")}@${newId("dscrev")}`,
      "dsc_123",
      newId("dsg"),
      `${d.id}@`,
      `${d.id}@dscrev_short`,
      `${d.id}@${newId("dsc")}`,
      `${d.id}@${revision}@${revision}`,
      `${d.id.toUpperCase()}`,
      `${d.id}@${revision.toUpperCase()}`,
    ]) {
      const error = expectError(await get(id), 404, "not_found");
      expect(error.detail).toContain(id.split("@")[0]!.slice(0, 4));
    }
  });
});

describe("PATCH /discounts/{discount_id}", () => {
  it("changes only the fields sent, moves to a new revision and writes discount.updated", async () => {
    const d = await createOk({ description: "Before", code: uniqueCode(), usage_limit: 5, custom_data: { a: 1 } });
    const oldRevision = await revisionNow(d.id);
    const res = await update(d.id, { description: "After", usage_limit: 10 });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    const { description, usage_limit, updated_at, ...rest } = res.body.data;
    expect({ description, usage_limit }).toEqual({ description: "After", usage_limit: 10 });
    const { description: _d, usage_limit: _u, updated_at: oldUpdated, ...before } = d;
    expect(rest).toEqual(before);
    expect(revisionOf(res)).not.toBe(oldRevision);
    expect(await revisionNow(d.id)).toBe(revisionOf(res));
    expect(updated_at >= oldUpdated).toBe(true);
    expect((await get(d.id)).body.data).toEqual(res.body.data);
  });

  it("gives every change a new revision, an empty change too", async () => {
    const d = await createOk();
    const revisions = new Set([await revisionNow(d.id)]);
    for (const body of [{}, { description: "x" }, { status: "archived" }, { status: "active" }]) {
      const res = await update(d.id, body);
      expect(res.status).toBe(200);
      revisions.add(revisionOf(res));
    }
    expect(revisions.size).toBe(5);
  });

  it("changes every field", async () => {
    const group = await newGroup();
    const d = await createOk();
    const code = uniqueCode("Every");
    const body = {
      description: "All new",
      enabled_for_checkout: false,
      code,
      type: "flat",
      mode: "custom",
      amount: "2500",
      currency_code: "GBP",
      recur: true,
      maximum_recurring_intervals: 6,
      usage_limit: 50,
      restrict_to: [productId],
      expires_at: FUTURE,
      discount_group_id: group,
      custom_data: { x: true },
    };
    const res = await update(d.id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ ...body, expires_at: "2099-12-31T23:59:59.000000Z" });

    const cleared = await update(d.id, {
      code: null,
      maximum_recurring_intervals: null,
      usage_limit: null,
      restrict_to: null,
      expires_at: null,
      discount_group_id: null,
      custom_data: null,
    });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.data).toMatchObject({
      code: null,
      maximum_recurring_intervals: null,
      usage_limit: null,
      restrict_to: null,
      expires_at: null,
      discount_group_id: null,
      custom_data: null,
      recur: true,
    });
  });

  describe("rules on the discount as it will be", () => {
    it("changing the type to flat needs a currency", async () => {
      const d = await createOk({ amount: "50" });
      expectFields(await update(d.id, { type: "flat" }), ["currency_code"]);
      expectFields(await update(d.id, { type: "flat_per_seat", amount: "100" }), ["currency_code"]);
      const ok = await update(d.id, { type: "flat", currency_code: "USD" });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ type: "flat", amount: "50", currency_code: "USD" });
    });

    it("changing the type to percentage needs a percentage amount and drops the currency", async () => {
      const d = await createOk({ ...FLAT, amount: "5000" });
      expectFields(await update(d.id, { type: "percentage" }), ["amount"]);
      expectFields(await update(d.id, { type: "percentage", currency_code: null }), ["amount"]);
      const ok = await update(d.id, { type: "percentage", amount: "20" });
      expect(ok.body.data).toMatchObject({ type: "percentage", amount: "20", currency_code: null });
    });

    it("checks a new amount against the stored type", async () => {
      const pct = await createOk();
      expectFields(await update(pct.id, { amount: "150" }), ["amount"]);
      expectFields(await update(pct.id, { amount: "0" }), ["amount"]);
      expect((await update(pct.id, { amount: "100" })).body.data.amount).toBe("100");
      expect((await update(pct.id, { amount: "0.01" })).body.data.amount).toBe("0.01");
      const flat = await createOk(FLAT);
      expect((await update(flat.id, { amount: "150" })).body.data.amount).toBe("150");
      expectFields(await update(flat.id, { amount: "1.50" }), ["amount"]);
      expectFields(await update(flat.id, { amount: "1000000000000000000" }), ["amount"]);
    });

    it("ignores a currency on a percentage discount and refuses clearing the currency of a flat one", async () => {
      const pct = await createOk();
      expect((await update(pct.id, { currency_code: "USD" })).body.data.currency_code).toBeNull();
      const flat = await createOk(FLAT);
      expectFields(await update(flat.id, { currency_code: null }), ["currency_code"]);
      expect((await update(flat.id, { currency_code: "JPY" })).body.data.currency_code).toBe("JPY");
    });

    it("maximum_recurring_intervals needs recur to be, or stay, true", async () => {
      const d = await createOk();
      expectFields(await update(d.id, { maximum_recurring_intervals: 3 }), ["maximum_recurring_intervals"]);
      expectFields(await update(d.id, { recur: false, maximum_recurring_intervals: 3 }), [
        "maximum_recurring_intervals",
      ]);
      const ok = await update(d.id, { recur: true, maximum_recurring_intervals: 3 });
      expect(ok.body.data).toMatchObject({ recur: true, maximum_recurring_intervals: 3 });
      // Stopping recurring leaves the stored maximum behind unless it is cleared too.
      expectFields(await update(d.id, { recur: false }), ["maximum_recurring_intervals"]);
      const off = await update(d.id, { recur: false, maximum_recurring_intervals: null });
      expect(off.body.data).toMatchObject({ recur: false, maximum_recurring_intervals: null });
    });

    it("applies the field limits of create", async () => {
      const d = await createOk({ recur: true });
      expectFields(await update(d.id, { description: "d".repeat(501) }), ["description"]);
      expectFields(await update(d.id, { description: "" }), ["description"]);
      expect((await update(d.id, { description: "d".repeat(500) })).status).toBe(200);
      expectFields(await update(d.id, { usage_limit: 0 }), ["usage_limit"]);
      expect((await update(d.id, { usage_limit: MAX_INT })).status).toBe(200);
      expectFields(await update(d.id, { usage_limit: MAX_INT + 1 }), ["usage_limit"]);
      expectFields(await update(d.id, { maximum_recurring_intervals: 0 }), ["maximum_recurring_intervals"]);
      expect((await update(d.id, { maximum_recurring_intervals: MAX_INT })).status).toBe(200);
      expectFields(await update(d.id, { code: "x".repeat(33) }), ["code"]);
      expect((await update(d.id, { code: `Z${uniqueCode()}`.padEnd(32, "0") })).status).toBe(200);
      expectFields(await update(d.id, { expires_at: "2001-01-01T00:00:00Z" }), ["expires_at"]);
      expectFields(await update(d.id, { type: "coupon" }), ["type"]);
      expectFields(await update(d.id, { mode: "other" }), ["mode"]);
      expectFields(await update(d.id, { restrict_to: [productId, productId] }), ["restrict_to[1]"]);
      expectFields(await update(d.id, { restrict_to: [newId("pri")] }), ["restrict_to[0]"]);
      expectFields(await update(d.id, { discount_group_id: newId("dsg") }), ["discount_group_id"]);
      expectFields(await update(d.id, { custom_data: [] }), ["custom_data"]);
      expectFields(await update(d.id, { times_used: 0 }), ["times_used"]);
    });

    it("lets an expired discount be changed without moving its expiry", async () => {
      const d = await createOk({ expires_at: FUTURE });
      await db().discount.update({ where: { id: d.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      const res = await update(d.id, { description: "Still expired" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: "expired", description: "Still expired" });
      expect((await update(d.id, { expires_at: FUTURE })).body.data.status).toBe("active");
    });

    it("refuses a status other than active or archived", async () => {
      const d = await createOk();
      for (const status of ["expired", "used", "deleted", null]) {
        expectFields(await update(d.id, { status }), ["status"]);
      }
    });
  });

  describe("codes", () => {
    it("generates a code when the discount would be enabled for checkout without one", async () => {
      const d = await createOk({ enabled_for_checkout: false });
      expect(d.code).toBeNull();
      const enabled = await update(d.id, { enabled_for_checkout: true });
      expect(enabled.body.data.code).toMatch(/^[A-Z0-9]{10}$/);
      const regenerated = await update(d.id, { code: null });
      expect(regenerated.body.data.code).toMatch(/^[A-Z0-9]{10}$/);
      expect(regenerated.body.data.code).not.toBe(enabled.body.data.code);
      const off = await update(d.id, { enabled_for_checkout: false, code: null });
      expect(off.body.data).toMatchObject({ enabled_for_checkout: false, code: null });
    });

    it("refuses another discount's code, without regard to case, naming the holder", async () => {
      const code = uniqueCode("Taken");
      const holder = await createOk({ code });
      const other = await createOk();
      const res = await update(other.id, { code: code.toLowerCase() });
      expect(expectError(res, 409, "conflict").detail).toContain(holder.id);
      expect((await get(other.id)).body.data).toEqual(other);
    });

    it("lets a discount change the case of its own code", async () => {
      const code = uniqueCode("Own");
      const d = await createOk({ code });
      expect((await update(d.id, { code: code.toLowerCase() })).body.data.code).toBe(code.toLowerCase());
      expect((await update(d.id, { code })).body.data.code).toBe(code);
    });
  });

  describe("archived discounts", () => {
    it("cannot be changed except to unarchive them", async () => {
      const d = await createOk({ description: "Keep" });
      const archived = await update(d.id, { status: "archived" });
      expect(archived.status).toBe(200);
      expect(archived.body.data.status).toBe("archived");

      for (const body of [{ description: "Changed" }, { status: "archived" }, {}, { amount: "999" }]) {
        const error = expectError(await update(d.id, body), 400, "entity_archived");
        expect(error.detail).toContain(d.id);
      }
      expectError(await update(`${d.id}@${revisionOf(archived)}`, { description: "x" }), 400, "entity_archived");
      expect((await get(d.id)).body.data).toEqual(archived.body.data);

      const back = await update(d.id, { status: "active", description: "Back" });
      expect(back.status).toBe(200);
      expect(back.body.data).toMatchObject({ status: "active", description: "Back" });
      expect((await update(d.id, { description: "Again" })).status).toBe(200);
    });

    it("are listed only when status asks for them", async () => {
      const group = await newGroup();
      const d = await createOk({ discount_group_id: group });
      await update(d.id, { status: "archived" });
      expect(ids(await list(`?discount_group_id=${group}`))).toEqual([]);
      expect(ids(await list(`?discount_group_id=${group}&status=archived`))).toEqual([d.id]);
    });
  });

  describe("revisions", () => {
    it("applies a PATCH naming the current revision and refuses one naming an older revision with 409", async () => {
      const d = await createOk({ description: "v1" });
      const revision = await revisionNow(d.id);
      const first = await update(`${d.id}@${revision}`, { description: "v2" });
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ id: d.id, description: "v2" });

      const stale = await update(`${d.id}@${revision}`, { description: "v2 from a stale form" });
      const error = expectError(stale, 409, "conflict");
      expect(error.detail).toContain(d.id);
      expect(error.detail).toContain(revision);
      expect(error.detail).toContain(revisionOf(first));
      expect((await get(d.id)).body.data).toEqual(first.body.data);

      const second = await update(`${d.id}@${revisionOf(first)}`, { description: "v3" });
      expect(second.status).toBe(200);
      expect(second.body.data.description).toBe("v3");
    });

    it("refuses a well-formed revision that was never the discount's", async () => {
      const d = await createOk();
      expectError(await update(`${d.id}@${newId("dscrev")}`, { description: "x" }), 409, "conflict");
      const other = await createOk();
      expectError(await update(`${d.id}@${await revisionNow(other.id)}`, { description: "x" }), 409, "conflict");
    });

    it("reads %40 as @ in the path", async () => {
      const d = await createOk();
      const revision = await revisionNow(d.id);
      const res = await update(`${d.id}%40${revision}`, { description: "encoded" });
      expect(res.status).toBe(200);
      expectError(await update(`${d.id}%40${revision}`, { description: "again" }), 409, "conflict");
    });

    it("the plain ID always changes the current revision", async () => {
      const d = await createOk();
      await update(d.id, { description: "a" });
      expect((await update(d.id, { description: "b" })).status).toBe(200);
    });

    it("gives one success and one 409 for two concurrent PATCHes naming the same revision", async () => {
      for (let round = 0; round < 5; round++) {
        const d = await createOk({ description: "start" });
        const path = `${d.id}@${await revisionNow(d.id)}`;
        const [a, b] = await Promise.all([
          update(path, { description: "staff A" }),
          update(path, { description: "staff B" }),
        ]);
        const statuses = [a.status, b.status].sort();
        expect(statuses).toEqual([200, 409]);
        const winner = a.status === 200 ? a : b;
        const loser = a.status === 200 ? b : a;
        expectError(loser, 409, "conflict");
        expect((await get(d.id)).body.data).toEqual(winner.body.data);
        const updates = await db().event.count({ where: { entityId: d.id, eventType: "discount.updated" } });
        expect(updates).toBe(1);
      }
    });

    it("lets exactly one of many concurrent PATCHes of one revision through", async () => {
      const d = await createOk();
      const path = `${d.id}@${await revisionNow(d.id)}`;
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => update(path, { usage_limit: i + 1 })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    });

    it("checks the revision before the archived rule and the fields", async () => {
      const d = await createOk();
      const revision = await revisionNow(d.id);
      const archived = await update(d.id, { status: "archived" });
      expectError(await update(`${d.id}@${revision}`, { description: "x" }), 409, "conflict");
      expectError(await update(`${d.id}@${revision}`, { status: "active", amount: "500" }), 409, "conflict");
      const back = await update(`${d.id}@${revisionOf(archived)}`, { status: "active" });
      expect(back.status).toBe(200);
    });
  });

  it("is 404 for unknown or malformed IDs, with or without a revision", async () => {
    const d = await createOk();
    for (const id of [
      newId("dsc"),
      `${newId("dsc")}@${newId("dscrev")}`,
      "dsc_123",
      `${d.id}@`,
      `${d.id}@dscrev_bad`,
      `${d.id}@${newId("dsg")}`,
      `${d.id}#${await revisionNow(d.id)}`,
    ]) {
      expectError(await update(id, { description: "x" }), 404, "not_found");
    }
    expect((await get(d.id)).body.data).toEqual(d);
  });

  it("checks the body only for an existing discount: 404 before field errors", async () => {
    expectError(await update(newId("dsc"), { amount: "500" }), 404, "not_found");
  });
});

describe("GET /discounts", () => {
  it("lists discounts with the envelope and pagination meta", async () => {
    const group = await newGroup();
    const d = await createOk({ discount_group_id: group });
    const res = await list(`?discount_group_id=${group}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(res.body.data).toEqual([d]);
    expect(Object.keys(res.body.data[0])).toEqual(FIELDS);
    expect(res.body.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 1 });
    expect(res.body.meta.pagination.next).toContain(`after=${d.id}`);
  });

  describe("filters", () => {
    it("by search (an extension): ID, or part of the code or description, any case", async () => {
      const tag = uniqueCode("S").slice(0, 12);
      const a = await createOk({ code: `${tag}A`, description: "Spring sale" });
      const b = await createOk({ description: `Partner ${tag} rate` });
      await createOk({ description: "Something else" });
      expect(ids(await list(`?search=${tag.toLowerCase()}`))).toEqual([a.id, b.id]);
      expect(ids(await list(`?search=${a.id}`))).toEqual([a.id]);
      expect(ids(await list(`?search=${encodeURIComponent(`${tag}%`)}`))).toEqual([]);
      const res = await list(`?search=${"x".repeat(101)}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["search"]);
    });

    it("by id", async () => {
      const [a, b] = [await createOk(), await createOk()];
      await createOk();
      expect(ids(await list(`?id=${a.id}`))).toEqual([a.id]);
      expect(ids(await list(`?id=${b.id},${a.id}`))).toEqual([a.id, b.id]);
      const res = await list("?id=dsc_bad");
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(/^id/);
    });

    it("by status: active by default, with expired, used and archived on request", async () => {
      const group = await newGroup();
      const active = await createOk({ discount_group_id: group });
      const expired = await createOk({ discount_group_id: group, expires_at: FUTURE });
      const used = await createOk({ discount_group_id: group, usage_limit: 1 });
      const archived = await createOk({ discount_group_id: group });
      await db().discount.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      await db().discount.update({ where: { id: used.id }, data: { timesUsed: 1 } });
      await update(archived.id, { status: "archived" });
      const q = `?discount_group_id=${group}`;
      expect(ids(await list(q))).toEqual([active.id]);
      expect(ids(await list(`${q}&status=active`))).toEqual([active.id]);
      expect(ids(await list(`${q}&status=expired`))).toEqual([expired.id]);
      expect(ids(await list(`${q}&status=used`))).toEqual([used.id]);
      expect(ids(await list(`${q}&status=archived`))).toEqual([archived.id]);
      expect(ids(await list(`${q}&status=expired,used`))).toEqual([expired.id, used.id]);
      expect(ids(await list(`${q}&status=active,archived`))).toEqual([active.id, archived.id]);
      expect(ids(await list(`${q}&status=active,expired,used`))).toEqual([active.id, expired.id, used.id]);
      expect(ids(await list(`${q}&status=active,expired,used,archived`))).toEqual([
        active.id,
        expired.id,
        used.id,
        archived.id,
      ]);
      const statuses = (await list(`${q}&status=active,expired,used,archived`)).body.data.map(
        (d: { status: string }) => d.status,
      );
      expect(statuses).toEqual(["active", "expired", "used", "archived"]);
      const res = await list("?status=deleted");
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(/^status/);
    });

    it("by code, without regard to case, several at once", async () => {
      const [c1, c2] = [uniqueCode("Find"), uniqueCode("Find")];
      const a = await createOk({ code: c1 });
      const b = await createOk({ code: c2 });
      expect(ids(await list(`?code=${c1.toLowerCase()}`))).toEqual([a.id]);
      expect(ids(await list(`?code=${c1},${c2.toLowerCase()}`))).toEqual([a.id, b.id]);
      expect(ids(await list(`?code=${uniqueCode("None")}`))).toEqual([]);
    });

    it("by discount_group_id, several at once", async () => {
      const [g1, g2, g3] = [await newGroup(), await newGroup(), await newGroup()];
      const a = await createOk({ discount_group_id: g1 });
      const b = await createOk({ discount_group_id: g2 });
      await createOk({ discount_group_id: g3 });
      expect(ids(await list(`?discount_group_id=${g1},${g2}`))).toEqual([a.id, b.id]);
      const res = await list("?discount_group_id=dsc_x");
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(/^discount_group_id/);
    });

    it("by mode", async () => {
      const group = await newGroup();
      const standard = await createOk({ discount_group_id: group });
      const custom = await createOk({ discount_group_id: group, mode: "custom" });
      expect(ids(await list(`?discount_group_id=${group}&mode=custom`))).toEqual([custom.id]);
      expect(ids(await list(`?discount_group_id=${group}&mode=standard`))).toEqual([standard.id]);
      const res = await list("?mode=other");
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["mode"]);
    });

    it("combines filters", async () => {
      const group = await newGroup();
      const code = uniqueCode("Combo");
      const a = await createOk({ discount_group_id: group, code, mode: "custom" });
      await createOk({ discount_group_id: group, mode: "custom" });
      expect(ids(await list(`?discount_group_id=${group}&mode=custom&code=${code}&id=${a.id}`))).toEqual([a.id]);
      expect(ids(await list(`?discount_group_id=${group}&mode=standard&code=${code}`))).toEqual([]);
    });

    it("include=discount_group adds each discount's group", async () => {
      const group = await newGroup("Listed group");
      await createOk({ discount_group_id: group });
      const res = await list(`?discount_group_id=${group}&include=discount_group`);
      expect(Object.keys(res.body.data[0])).toEqual([...FIELDS, "discount_group"]);
      expect(res.body.data[0].discount_group).toMatchObject({ id: group, name: "Listed group" });
    });
  });

  describe("order and pagination", () => {
    let group: string;
    let made: string[];

    beforeAll(async () => {
      group = await newGroup("Paged");
      made = [];
      for (let i = 0; i < 7; i++) made.push((await createOk({ discount_group_id: group })).id);
    });

    it("orders by id ascending by default and descending with id[DESC]", async () => {
      expect(ids(await list(`?discount_group_id=${group}`))).toEqual(made);
      expect(ids(await list(`?discount_group_id=${group}&order_by=id[ASC]`))).toEqual(made);
      expect(ids(await list(`?discount_group_id=${group}&order_by=id[DESC]`))).toEqual([...made].reverse());
    });

    it("orders by created_at and updated_at", async () => {
      expect(ids(await list(`?discount_group_id=${group}&order_by=created_at[ASC]`))).toEqual(made);
      expect(ids(await list(`?discount_group_id=${group}&order_by=created_at[DESC]`))).toEqual([...made].reverse());
      await update(made[0]!, { description: "touched last" });
      const byUpdate = ids(await list(`?discount_group_id=${group}&order_by=updated_at[DESC]`));
      expect(byUpdate[0]).toBe(made[0]);
      expect(byUpdate).toHaveLength(7);
    });

    it("refuses other order_by fields", async () => {
      for (const orderBy of ["code[ASC]", "amount[DESC]", "id"]) {
        const res = await list(`?order_by=${orderBy}`);
        expectError(res, 400, "invalid_field");
        expect(errorFields(res)).toEqual(["order_by"]);
      }
    });

    it("pages with per_page, following meta.pagination.next", async () => {
      const seen: string[] = [];
      let res = await list(`?discount_group_id=${group}&per_page=3`);
      for (let page = 0; page < 3; page++) {
        expect(res.status).toBe(200);
        expect(res.body.meta.pagination.per_page).toBe(3);
        expect(res.body.meta.pagination.estimated_total).toBe(7);
        expect(res.body.meta.pagination.has_more).toBe(page < 2);
        seen.push(...ids(res));
        if (page < 2) {
          res = await call(collection.GET, "GET", nextPath(res.body.meta.pagination.next), { key: await admin() });
        }
      }
      expect(seen).toEqual(made);
    });

    it("pages in descending order and by created_at with after", async () => {
      expect(ids(await list(`?discount_group_id=${group}&order_by=id[DESC]&after=${made[3]}`))).toEqual(
        made.slice(0, 3).reverse(),
      );
      expect(ids(await list(`?discount_group_id=${group}&order_by=created_at[ASC]&after=${made[4]}`))).toEqual(
        made.slice(5),
      );
    });

    it("caps per_page at 200 and refuses per_page below 1", async () => {
      expect((await list("?per_page=1000")).body.meta.pagination.per_page).toBe(200);
      const res = await list("?per_page=0");
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["per_page"]);
    });
  });
});

describe("permissions", () => {
  const WITHOUT = permissionsWithout("discount.");

  it("GET /discounts needs discount.read; write implies read", async () => {
    await expectPermission((key) => list("", key), {
      permission: "discount.read",
      denied: [WITHOUT, ["discount_group.write"]],
      allowed: [["discount.read"], ["discount.write"]],
    });
  });

  it("POST /discounts needs discount.write", async () => {
    const before = await db().discount.count();
    await expectForbidden((key) => create(PERCENT, key), [WITHOUT, ["discount.read"]], "discount.write");
    expect(await db().discount.count()).toBe(before);
    await expectAllowed((key) => create(PERCENT, key), [["discount.write"]], 201);
  });

  it("restrict_to and discount_group_id need no product, price or discount group permission", async () => {
    const group = await newGroup();
    const res = await create(
      { ...PERCENT, restrict_to: [productId, priceId], discount_group_id: group },
      await testKey(["discount.write"]),
    );
    expect(res.status).toBe(201);
  });

  it("GET /discounts/{id} needs discount.read; write implies read", async () => {
    const d = await createOk();
    await expectForbidden((key) => get(d.id, "", key), [WITHOUT, ["discount_group.read"]]);
    await expectAllowed((key) => get(d.id, "", key), [["discount.read"], ["discount.write"]], 200);
  });

  it("PATCH /discounts/{id} needs discount.write", async () => {
    const d = await createOk({ description: "Before" });
    await expectForbidden(
      (key) => update(d.id, { description: "After" }, key),
      [WITHOUT, ["discount.read"]],
      "discount.write",
    );
    expect((await get(d.id)).body.data).toEqual(d);
    const ok = await update(
      `${d.id}@${await revisionNow(d.id)}`,
      { description: "After" },
      await testKey(["discount.write"]),
    );
    expect(ok.status).toBe(200);
  });

  it("refuses a request without a key (401) and checks the permission before the lookup (403, not 404)", async () => {
    expectError(await call(collection.GET, "GET", "/discounts", { key: null }), 401, "invalid_token");
    expectError(await get(newId("dsc"), "", await testKey(["product.read"])), 403, "forbidden");
    expectError(await update(newId("dsc"), {}, await testKey(["discount.read"])), 403, "forbidden");
  });
});

describe("methods", () => {
  it("answers 405 for methods the paths do not have", async () => {
    const id = newId("dsc");
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/discounts");
    await expectMethodsNotAllowed(item, ["DELETE", "POST", "PUT"], `/discounts/${id}`);
  });
});

describe("events", () => {
  it("writes discount.created and one discount.updated per change, with the entity as returned", async () => {
    const d = await createOk({ code: uniqueCode("Evt"), custom_data: { k: "v" } });
    const changed = await update(d.id, { description: "Changed" });
    const archived = await update(`${d.id}@${revisionOf(changed)}`, { status: "archived" });
    const rows = await events(d.id);
    expect(rows.map((e) => e.eventType)).toEqual(["discount.created", "discount.updated", "discount.updated"]);
    expect(rows[0]!.id).toMatch(/^evt_[a-z0-9]{26}$/);
    expect(rows[0]!.data).toEqual(d);
    expect(rows[1]!.data).toEqual(changed.body.data);
    expect(rows[2]!.data).toEqual(archived.body.data);
  });

  it("writes no event for a refused update", async () => {
    const d = await createOk();
    const taken = await createOk({ code: uniqueCode("Held") });
    const before = await db().event.count();
    expectError(await update(d.id, { amount: "101" }), 400, "invalid_field");
    expectError(await update(d.id, { restrict_to: [newId("pro")] }), 400, "invalid_field");
    expectError(await update(d.id, { code: taken.code }), 409, "conflict");
    expectError(await update(`${d.id}@${newId("dscrev")}`, { description: "x" }), 409, "conflict");
    expectError(await update(newId("dsc"), { description: "x" }), 404, "not_found");
    await update(d.id, { status: "archived" });
    const afterArchive = await db().event.count();
    expect(afterArchive).toBe(before + 1);
    expectError(await update(d.id, { description: "x" }), 400, "entity_archived");
    expect(await db().event.count()).toBe(afterArchive);
    const last = (await events(d.id)).at(-1)?.data as { updated_at: string };
    expect((await get(d.id)).body.data.updated_at).toBe(last.updated_at);
  });
});
