/** Every customer endpoint, through the real route handlers on a real database. */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/connection";
import { errorFields, expectError, nextPath, testKey } from "@/lib/dev/test/api";
import {
  events,
  expectAllowed,
  expectForbidden,
  expectOnlyEvent,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { ids, type Key, resource } from "@/lib/dev/test/resource";
import { newId } from "@/lib/ids";
import * as item from "./[customer_id]/route";
import * as collection from "./route";

const FIELDS = [
  "id",
  "name",
  "email",
  "marketing_consent",
  "status",
  "custom_data",
  "locale",
  "created_at",
  "updated_at",
  "import_meta",
];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

let seq = 0;
function uniqueEmail(tag = "ctm"): string {
  seq += 1;
  return `${tag}-${seq}-${Date.now()}@example.com`;
}

const api = resource("/customers", "customer_id", collection, item);
const { create, update, list, follow, walk } = api;
const get = (id: string, key?: Key) => api.get(id, "", key);

async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await create({ email: uniqueEmail(), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe("POST /customers", () => {
  it("creates a customer: 201, the spec's fields in the spec's order, with defaults", async () => {
    const email = uniqueEmail();
    const res = await create({ email });
    expect(res.status).toBe(201);
    const c = res.body.data;
    expect(Object.keys(c)).toEqual(FIELDS);
    expect(c.id).toMatch(/^ctm_[a-z0-9]{26}$/);
    expect(c.email).toBe(email);
    expect(c.name).toBeNull();
    expect(c.marketing_consent).toBe(false);
    expect(c.status).toBe("active");
    expect(c.custom_data).toBeNull();
    expect(c.locale).toBe("en");
    expect(c.import_meta).toBeNull();
    expect(c.created_at).toMatch(RFC3339);
    expect(c.updated_at).toMatch(RFC3339);
    expect(Number.isNaN(Date.parse(c.created_at))).toBe(false);
    expect(Math.abs(Date.parse(c.created_at) - Date.now())).toBeLessThan(60_000);
    expect(Object.keys(res.body.meta)).toEqual(["request_id"]);
  });

  it("stores every field given", async () => {
    const email = uniqueEmail();
    const res = await create({
      email,
      name: "Ada Lovelace",
      custom_data: { plan: "gold", n: 3, nested: { a: [1, 2] } },
      locale: "pt-BR",
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      email,
      name: "Ada Lovelace",
      custom_data: { plan: "gold", n: 3, nested: { a: [1, 2] } },
      locale: "pt-BR",
    });
    const again = await get(res.body.data.id);
    expect(again.body.data).toEqual(res.body.data);
  });

  describe("validation", () => {
    function emailOfLength(n: number): string {
      const local = "a".repeat(64);
      const suffix = ".com";
      let domain = "";
      let remaining = n - local.length - 1 - suffix.length;
      while (remaining > 0) {
        const label = Math.min(63, remaining - (domain ? 1 : 0));
        if (label <= 0) break;
        domain += (domain ? "." : "") + "b".repeat(label);
        remaining = n - local.length - 1 - suffix.length - domain.length;
      }
      const out = `${local}@${domain}${suffix}`;
      expect(out).toHaveLength(n);
      return out;
    }

    it("accepts an email of 320 characters", async () => {
      const email = emailOfLength(320);
      const res = await create({ email });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.email).toBe(email);
    });

    it("refuses an email of 321 characters", async () => {
      const res = await create({ email: emailOfLength(321) });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toContain("email");
    });

    it.each([
      ["empty", ""],
      ["no at sign", "not-an-email"],
      ["no domain", "someone@"],
      ["no local part", "@example.com"],
      ["spaces", "some one@example.com"],
    ])("refuses an invalid email (%s)", async (_name, email) => {
      const res = await create({ email });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["email"]);
    });

    it("requires an email", async () => {
      const res = await create({ name: "No Email" });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["email"]);
    });

    it.each([
      ["a number", 42],
      ["null", null],
    ])("refuses an email that is %s", async (_name, email) => {
      const res = await create({ email });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["email"]);
    });

    it("accepts a name of 1024 characters and refuses 1025", async () => {
      const ok = await create({ email: uniqueEmail(), name: "n".repeat(1024) });
      expect(ok.status).toBe(201);
      expect(ok.body.data.name).toHaveLength(1024);
      const bad = await create({ email: uniqueEmail(), name: "n".repeat(1025) });
      expectError(bad, 400, "invalid_field");
      expect(errorFields(bad)).toEqual(["name"]);
    });

    it("accepts a null name", async () => {
      const res = await create({ email: uniqueEmail(), name: null });
      expect(res.status).toBe(201);
      expect(res.body.data.name).toBeNull();
    });

    it.each(["not a locale!", "12345678901234567890", "", "en_US_POSIX!"])("refuses the locale %j", async (locale) => {
      const res = await create({ email: uniqueEmail(), locale });
      expectError(res, 400, "invalid_field");
      expect([...new Set(errorFields(res))]).toEqual(["locale"]);
    });

    it.each([
      ["an array", [1, 2]],
      ["a string", "data"],
      ["a number", 7],
      ["a boolean", true],
    ])("refuses custom_data that is %s", async (_name, customData) => {
      const res = await create({ email: uniqueEmail(), custom_data: customData });
      const error = expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["custom_data"]);
      expect(error.errors?.[0]?.message.length).toBeGreaterThan(0);
    });

    it("accepts null custom_data", async () => {
      const res = await create({ email: uniqueEmail(), custom_data: null });
      expect(res.status).toBe(201);
      expect(res.body.data.custom_data).toBeNull();
    });

    it("refuses an unknown field", async () => {
      const email = uniqueEmail();
      const res = await create({ email, favourite_colour: "blue" });
      expectError(res, 400, "invalid_field");
      expect(JSON.stringify(res.body.error.errors)).toContain("favourite_colour");
      expect(await db().customer.count({ where: { email } })).toBe(0);
    });

    it("refuses fields set by the service (id, status, marketing_consent)", async () => {
      for (const extra of [
        { id: newId("ctm") },
        { status: "archived" },
        { marketing_consent: true },
        { created_at: new Date().toISOString() },
      ]) {
        const res = await create({ email: uniqueEmail(), ...extra });
        expectError(res, 400, "invalid_field");
      }
    });

    it("reports every invalid field at once", async () => {
      const res = await create({ email: "x", name: "n".repeat(1025), custom_data: [] });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res).sort()).toEqual(["custom_data", "email", "name"]);
    });
  });

  describe("email uniqueness", () => {
    it("refuses a duplicate email, without regard to case, with 409 customer_already_exists naming the holder", async () => {
      const email = uniqueEmail("dup");
      const first = await create({ email });
      expect(first.status).toBe(201);
      const id = first.body.data.id as string;
      for (const variant of [email, email.toUpperCase(), email.replace(/^d/, "D")]) {
        const res = await create({ email: variant });
        const error = expectError(res, 409, "customer_already_exists");
        expect(error.detail).toContain(id);
      }
      expect(await db().customer.count({ where: { email: { equals: email, mode: "insensitive" } } })).toBe(1);
    });

    it("lets an archived customer's email be reused", async () => {
      const email = uniqueEmail("reuse");
      const old = await createOk({ email });
      expect((await update(old.id, { status: "archived" })).status).toBe(200);
      const res = await create({ email });
      expect(res.status).toBe(201);
      expect(res.body.data.id).not.toBe(old.id);
    });

    it("refuses to unarchive a customer whose email is now taken (409), and allows it once free", async () => {
      const email = uniqueEmail("unarchive");
      const old = await createOk({ email });
      await update(old.id, { status: "archived" });
      const newer = await createOk({ email: email.toUpperCase() });
      const res = await update(old.id, { status: "active" });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("customer_already_exists");
      expect(res.body.error.detail).toContain(newer.id);
      expect((await get(old.id)).body.data.status).toBe("archived");
      // Free it, then the unarchive works.
      await update(newer.id, { status: "archived" });
      const ok = await update(old.id, { status: "active" });
      expect(ok.status).toBe(200);
      expect(ok.body.data.status).toBe("active");
    });

    it("refuses changing the email to another active customer's email", async () => {
      const a = await createOk();
      const b = await createOk();
      const res = await update(b.id, { email: a.email.toUpperCase() });
      const error = expectError(res, 409, "customer_already_exists");
      expect(error.detail).toContain(a.id);
      expect((await get(b.id)).body.data.email).toBe(b.email);
    });

    it("lets a customer change the case of its own email", async () => {
      const a = await createOk();
      const res = await update(a.id, { email: a.email.toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body.data.email).toBe(a.email.toUpperCase());
    });

    it("gives exactly one 201 and nine 409s for 10 parallel creates of the same email", async () => {
      const email = uniqueEmail("race");
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          create({ email: i % 2 ? email.toUpperCase() : email, name: `racer ${i}` }),
        ),
      );
      const created = results.filter((r) => r.status === 201);
      const conflicts = results.filter((r) => r.status === 409);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
      expect(created).toHaveLength(1);
      const winner = created[0]!.body.data.id as string;
      for (const r of conflicts) {
        expect(r.body.error.code).toBe("customer_already_exists");
        expect(r.body.error.detail).toContain(winner);
      }
      expect(await db().customer.count({ where: { email: { equals: email, mode: "insensitive" } } })).toBe(1);
      const events = await db().event.findMany({ where: { eventType: "customer.created", entityId: winner } });
      expect(events).toHaveLength(1);
      const all = await db().event.findMany({ where: { eventType: "customer.created" } });
      expect(
        all.filter((e) => String((e.data as { email?: string }).email).toLowerCase() === email.toLowerCase()),
      ).toHaveLength(1);
    });
  });
});

describe("GET /customers/{customer_id}", () => {
  it("returns the customer", async () => {
    const c = await createOk({ name: "Grace", custom_data: { a: 1 } });
    const res = await get(c.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toEqual(c);
  });

  it("returns archived customers too", async () => {
    const c = await createOk();
    await update(c.id, { status: "archived" });
    const res = await get(c.id);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("archived");
  });

  it.each([
    ["an unknown ID", () => newId("ctm")],
    ["a malformed ID", () => "ctm_123"],
    ["another entity's ID", () => newId("add")],
    ["upper case", () => newId("ctm").toUpperCase()],
  ])("gives 404 not_found for %s", async (_name, makeId) => {
    const id = makeId();
    const res = await get(id);
    const error = expectError(res, 404, "not_found");
    expect(error.detail).toContain(id);
  });
});

describe("PATCH /customers/{customer_id}", () => {
  it("updates the name", async () => {
    const c = await createOk({ name: "Old" });
    const res = await update(c.id, { name: "New Name" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toMatchObject({ id: c.id, name: "New Name", email: c.email, locale: c.locale });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(c.updated_at));
    expect(res.body.data.created_at).toBe(c.created_at);
    expect((await get(c.id)).body.data.name).toBe("New Name");
  });

  it("clears the name with null", async () => {
    const c = await createOk({ name: "Someone" });
    const res = await update(c.id, { name: null });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBeNull();
  });

  it("updates the email", async () => {
    const c = await createOk();
    const email = uniqueEmail("changed");
    const res = await update(c.id, { email });
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe(email);
    expect((await get(c.id)).body.data.email).toBe(email);
  });

  it("updates the locale", async () => {
    const c = await createOk();
    const res = await update(c.id, { locale: "fr" });
    expect(res.status).toBe(200);
    expect(res.body.data.locale).toBe("fr");
  });

  it("replaces custom_data and clears it with null", async () => {
    const c = await createOk({ custom_data: { a: 1, b: 2 } });
    const replaced = await update(c.id, { custom_data: { c: 3 } });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.custom_data).toEqual({ c: 3 });
    const cleared = await update(c.id, { custom_data: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.custom_data).toBeNull();
    expect((await get(c.id)).body.data.custom_data).toBeNull();
  });

  it("leaves fields not sent unchanged", async () => {
    const c = await createOk({ name: "Keep", custom_data: { keep: true }, locale: "de" });
    const res = await update(c.id, { locale: "it" });
    expect(res.body.data).toMatchObject({
      name: "Keep",
      custom_data: { keep: true },
      locale: "it",
      email: c.email,
      status: "active",
    });
  });

  it("archives and unarchives", async () => {
    const c = await createOk();
    const archived = await update(c.id, { status: "archived" });
    expect(archived.status).toBe(200);
    expect(archived.body.data.status).toBe("archived");
    const active = await update(c.id, { status: "active" });
    expect(active.status).toBe(200);
    expect(active.body.data.status).toBe("active");
  });

  it.each([
    ["email", { email: "not-an-email" }],
    ["email", { email: "" }],
    ["name", { name: "x".repeat(1025) }],
    ["locale", { locale: "?!" }],
    ["custom_data", { custom_data: [] }],
    ["custom_data", { custom_data: "x" }],
    ["status", { status: "deleted" }],
  ])("refuses an invalid %s", async (field, body) => {
    const c = await createOk();
    const res = await update(c.id, body);
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual([field]);
    expect((await get(c.id)).body.data).toEqual(c);
  });

  it("refuses an unknown field", async () => {
    const c = await createOk();
    const res = await update(c.id, { marketing_consent: true });
    expectError(res, 400, "invalid_field");
  });

  it.each([
    ["an unknown ID", () => newId("ctm")],
    ["a malformed ID", () => "ctm_nope"],
  ])("gives 404 not_found for %s", async (_name, makeId) => {
    const id = makeId();
    const res = await update(id, { name: "x" });
    expectError(res, 404, "not_found");
  });
});

describe("GET /customers", () => {
  it("lists customers with pagination meta", async () => {
    const c = await createOk();
    const res = await list();
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    for (const row of res.body.data) expect(Object.keys(row)).toEqual(FIELDS);
    expect(ids(res)).toContain(c.id);
    const p = res.body.meta.pagination;
    expect(Object.keys(p).sort()).toEqual(["estimated_total", "has_more", "next", "per_page"]);
    expect(typeof p.next).toBe("string");
    expect(() => new URL(p.next)).not.toThrow();
    expect(typeof res.body.meta.request_id).toBe("string");
  });

  it("estimated_total follows a write made just before (the reused total is forgotten)", async () => {
    const before = (await list("?status=active,archived")).body.meta.pagination.estimated_total;
    await createOk();
    const after = (await list("?status=active,archived")).body.meta.pagination.estimated_total;
    expect(after).toBe(before + 1);
  });

  describe("filters", () => {
    it("filters by id (comma-separated)", async () => {
      const a = await createOk();
      const b = await createOk();
      await createOk();
      const res = await list(`?id=${a.id},${b.id}`);
      expect(res.status).toBe(200);
      expect(ids(res).sort()).toEqual([a.id, b.id].sort());
    });

    it("refuses a malformed id filter", async () => {
      const res = await list("?id=ctm_bad");
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(/^id/);
    });

    it("filters by email, without regard to case", async () => {
      const a = await createOk();
      await createOk();
      const res = await list(`?email=${encodeURIComponent(a.email.toUpperCase())}`);
      expect(ids(res)).toEqual([a.id]);
    });

    it("filters by several emails", async () => {
      const a = await createOk();
      const b = await createOk();
      const res = await list(`?email=${encodeURIComponent(`${a.email},${b.email}`)}`);
      expect(ids(res).sort()).toEqual([a.id, b.id].sort());
    });

    it("lists only active customers by default; status picks others", async () => {
      const tag = `status${Date.now()}`;
      const active = await createOk({ email: uniqueEmail(tag) });
      const archived = await createOk({ email: uniqueEmail(tag) });
      await update(archived.id, { status: "archived" });
      const byDefault = await list(`?search=${tag}`);
      expect(ids(byDefault)).toEqual([active.id]);
      const onlyArchived = await list(`?search=${tag}&status=archived`);
      expect(ids(onlyArchived)).toEqual([archived.id]);
      const both = await list(`?search=${tag}&status=active,archived`);
      expect(ids(both).sort()).toEqual([active.id, archived.id].sort());
      const bad = await list("?status=deleted");
      expectError(bad, 400, "invalid_field");
      expect(errorFields(bad)[0]).toMatch(/^status/);
    });

    it("searches by part of the email", async () => {
      const token = `srchmail${Date.now()}`;
      const a = await createOk({ email: `x.${token}.y@example.org` });
      await createOk();
      const res = await list(`?search=${token.toUpperCase()}`);
      expect(ids(res)).toEqual([a.id]);
    });

    it("searches by part of the name", async () => {
      const token = `Zebulon${Date.now()}`;
      const a = await createOk({ name: `Dr ${token} Smith` });
      await createOk({ name: "Someone Else" });
      const res = await list(`?search=${token.toLowerCase().slice(2)}`);
      expect(ids(res)).toEqual([a.id]);
    });

    it("searches by id", async () => {
      const a = await createOk();
      await createOk();
      const res = await list(`?search=${a.id}`);
      expect(ids(res)).toEqual([a.id]);
    });

    it("refuses a search longer than 100 characters", async () => {
      const res = await list(`?search=${"s".repeat(101)}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["search"]);
    });
  });

  describe("order_by", () => {
    it("orders by id ascending by default and descending with id[DESC]", async () => {
      const tag = `order${Date.now()}`;
      const made = [
        await createOk({ email: uniqueEmail(tag) }),
        await createOk({ email: uniqueEmail(tag) }),
        await createOk({ email: uniqueEmail(tag) }),
      ];
      const asc = await list(`?search=${tag}`);
      expect(ids(asc)).toEqual(made.map((c) => c.id));
      const ascExplicit = await list(`?search=${tag}&order_by=id[ASC]`);
      expect(ids(ascExplicit)).toEqual(made.map((c) => c.id));
      const desc = await list(`?search=${tag}&order_by=${encodeURIComponent("id[DESC]")}`);
      expect(desc.status).toBe(200);
      expect(ids(desc)).toEqual(made.map((c) => c.id).reverse());
    });

    it("pages in descending order following next", async () => {
      const tag = `descpage${Date.now()}`;
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await createOk({ email: uniqueEmail(tag) })).id);
      const first = await list(`?search=${tag}&order_by=id[DESC]&per_page=2`);
      expect(ids(first)).toEqual([made[4], made[3]]);
      const second = await list(nextPath(first.body.meta.pagination.next).replace(/^\/customers/, ""));
      expect(ids(second)).toEqual([made[2], made[1]]);
      const third = await list(nextPath(second.body.meta.pagination.next).replace(/^\/customers/, ""));
      expect(ids(third)).toEqual([made[0]]);
      expect(third.body.meta.pagination.has_more).toBe(false);
    });

    it.each(["name[ASC]", "email[DESC]", "created_at[ASC]", "id", "id[UP]", "id[ASC]x", "[ASC]"])(
      "refuses order_by=%s with invalid_field on order_by",
      async (orderBy) => {
        const res = await list(`?order_by=${encodeURIComponent(orderBy)}`);
        expectError(res, 400, "invalid_field");
        expect(errorFields(res)).toEqual(["order_by"]);
      },
    );
  });

  describe("pagination over 250 customers", () => {
    const DOMAIN = "paging-250.example";
    let all: string[] = [];

    async function seed(): Promise<void> {
      if (all.length) return;
      const rows = Array.from({ length: 250 }, (_, i) => ({
        id: newId("ctm"),
        email: `p${String(i).padStart(3, "0")}@${DOMAIN}`,
        name: `Paged ${i}`,
      }));
      await db().customer.createMany({ data: rows });
      all = rows.map((r) => r.id);
    }

    it("gives 200 then 50 with per_page=200, following meta.pagination.next", async () => {
      await seed();
      const first = await list(`?search=${DOMAIN}&per_page=200`);
      expect(first.status).toBe(200);
      expect(first.body.data).toHaveLength(200);
      expect(first.body.meta.pagination).toMatchObject({ per_page: 200, has_more: true, estimated_total: 250 });
      const next = new URL(first.body.meta.pagination.next);
      expect(next.searchParams.get("after")).toBe(ids(first)[199]);
      // The original query is kept.
      expect(next.searchParams.get("search")).toBe(DOMAIN);
      expect(next.searchParams.get("per_page")).toBe("200");

      const second = await follow(first);
      expect(second.status).toBe(200);
      expect(second.body.data).toHaveLength(50);
      expect(second.body.meta.pagination.has_more).toBe(false);
      expect(second.body.meta.pagination.per_page).toBe(200);
      // next is always present, even on the last page.
      expect(typeof second.body.meta.pagination.next).toBe("string");
      expect(new URL(second.body.meta.pagination.next).searchParams.get("after")).toBe(ids(second)[49]);

      const seen = [...ids(first), ...ids(second)];
      expect(new Set(seen).size).toBe(250);
      expect(seen).toEqual([...all].sort());

      const third = await follow(second);
      expect(third.status).toBe(200);
      expect(third.body.data).toEqual([]);
      expect(third.body.meta.pagination.has_more).toBe(false);
      expect(typeof third.body.meta.pagination.next).toBe("string");
    });

    it("defaults per_page to 50", async () => {
      await seed();
      const res = await list(`?search=${DOMAIN}`);
      expect(res.body.data).toHaveLength(50);
      expect(res.body.meta.pagination.per_page).toBe(50);
      expect(res.body.meta.pagination.has_more).toBe(true);
      expect(res.body.meta.pagination.estimated_total).toBe(250);
      expect(ids(res)).toEqual([...all].sort().slice(0, 50));
    });

    it("walks all 250 with the default page size in 5 pages", async () => {
      await seed();
      const walked = await walk(`?search=${DOMAIN}`, 6);
      expect(walked.pages).toBe(5);
      expect(walked.ids).toEqual([...all].sort());
    });

    it("caps per_page=500 to 200 and reports it", async () => {
      await seed();
      const res = await list(`?search=${DOMAIN}&per_page=500`);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(200);
      expect(res.body.meta.pagination.per_page).toBe(200);
      expect(res.body.meta.pagination.has_more).toBe(true);
    });

    it("caps a very large per_page to 200 as well", async () => {
      await seed();
      const res = await list(`?search=${DOMAIN}&per_page=100000000000000000000`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.meta.pagination.per_page).toBe(200);
    });

    it("honours a small per_page", async () => {
      await seed();
      const res = await list(`?search=${DOMAIN}&per_page=1`);
      expect(res.body.data).toHaveLength(1);
      expect(res.body.meta.pagination.per_page).toBe(1);
      expect(res.body.meta.pagination.has_more).toBe(true);
    });

    it.each(["0", "-1", "abc", "1.5", ""])("refuses per_page=%j with invalid_field on per_page", async (perPage) => {
      const res = await list(`?per_page=${perPage}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["per_page"]);
    });
  });
});

describe("permissions", () => {
  const WITHOUT_CUSTOMER = permissionsWithout("customer.");

  it("GET /customers needs customer.read", async () => {
    await expectPermission((key) => list("", key), {
      permission: "customer.read",
      denied: [WITHOUT_CUSTOMER, ["address.write"]],
      allowed: [["customer.read"], ["customer.write"]],
    });
  });

  it("POST /customers needs customer.write", async () => {
    for (const perms of [WITHOUT_CUSTOMER, ["customer.read"]]) {
      const email = uniqueEmail("perm");
      const error = expectError(await create({ email }, await testKey(perms)), 403, "forbidden");
      expect(error.detail).toContain("customer.write");
      expect(await db().customer.count({ where: { email } })).toBe(0);
    }
    await expectAllowed((key) => create({ email: uniqueEmail("perm") }, key), [["customer.write"]], 201);
  });

  it("GET /customers/{id} needs customer.read", async () => {
    const c = await createOk();
    await expectPermission((key) => get(c.id, key), {
      permission: "customer.read",
      denied: [WITHOUT_CUSTOMER, ["product.read"]],
      allowed: [["customer.read"], ["customer.write"]],
    });
  });

  it("PATCH /customers/{id} needs customer.write", async () => {
    const c = await createOk({ name: "Before" });
    await expectForbidden(
      (key) => update(c.id, { name: "After" }, key),
      [WITHOUT_CUSTOMER, ["customer.read"]],
      "customer.write",
    );
    expect((await get(c.id)).body.data.name).toBe("Before");
    const ok = await update(c.id, { name: "After" }, await testKey(["customer.write"]));
    expect(ok.status).toBe(200);
    expect(ok.body.data.name).toBe("After");
  });

  it("checks the permission before looking the entity up (403, not 404)", async () => {
    const key = await testKey(["product.read"]);
    expectError(await get(newId("ctm"), key), 403, "forbidden");
  });
});

describe("events", () => {
  it("writes one customer.created event whose data is the response entity", async () => {
    const res = await create({ email: uniqueEmail("evt"), name: "Evented", custom_data: { k: "v" } });
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    await expectOnlyEvent(id, "customer.created", res.body.data);
  });

  it("writes one customer.updated event per update, with the updated entity", async () => {
    const c = await createOk();
    const res = await update(c.id, { name: "Changed", locale: "es" });
    expect(res.status).toBe(200);
    const updated = await db().event.findMany({ where: { entityId: c.id, eventType: "customer.updated" } });
    expect(updated).toHaveLength(1);
    expect(updated[0]!.data).toEqual(res.body.data);
    const archived = await update(c.id, { status: "archived" });
    const after = await events(c.id);
    expect(after.map((e) => e.eventType)).toEqual(["customer.created", "customer.updated", "customer.updated"]);
    expect(after[2]!.data).toEqual(archived.body.data);
  });

  it("writes no event for a failed create or update", async () => {
    const existing = await createOk();
    const before = await db().event.count();
    expectError(await create({ email: existing.email }), 409, "customer_already_exists");
    expectError(await create({ email: "invalid" }), 400, "invalid_field");
    expectError(await update(existing.id, { status: "nope" }), 400, "invalid_field");
    expectError(await update(newId("ctm"), { name: "ghost" }), 404, "not_found");
    const other = await createOk();
    const afterCreate = await db().event.count();
    expect(afterCreate).toBe(before + 1);
    expectError(await update(other.id, { email: existing.email }), 409, "customer_already_exists");
    expect(await db().event.count()).toBe(afterCreate);
  });
});
