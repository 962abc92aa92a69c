/**
 * Every discount group endpoint, through the real route handlers on a real database.
 *   GET/POST  /discount-groups
 *   GET/PATCH /discount-groups/{discount_group_id}
 */
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/connection";
import { call, errorFields, expectError, nextPath, testKey } from "@/lib/dev/test/api";
import {
  events,
  expectAllowed,
  expectForbidden,
  expectMethodsNotAllowed,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { admin, ids, type Key, resource } from "@/lib/dev/test/resource";
import { newId } from "@/lib/ids";
import * as item from "./[discount_group_id]/route";
import * as collection from "./route";

const FIELDS = ["id", "name", "status", "import_meta", "created_at", "updated_at"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const api = resource("/discount-groups", "discount_group_id", collection, item);
const { create, update, list } = api;
const get = (id: string, key?: Key) => api.get(id, "", key);

async function createOk(name = "Spring sale"): Promise<Record<string, any>> {
  const res = await create({ name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe("POST /discount-groups", () => {
  it("creates a discount group: 201, the envelope, the fields in order, defaults", async () => {
    const res = await create({ name: "Black Friday" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(typeof res.body.meta.request_id).toBe("string");
    const g = res.body.data;
    expect(Object.keys(g)).toEqual(FIELDS);
    expect(g.id).toMatch(/^dsg_[a-z0-9]{26}$/);
    expect(g).toMatchObject({ name: "Black Friday", status: "active", import_meta: null });
    expect(g.created_at).toMatch(TIMESTAMP);
    expect(g.updated_at).toBe(g.created_at);
  });

  it("accepts names of 1 and 100 characters", async () => {
    expect((await create({ name: "A" })).body.data.name).toBe("A");
    expect((await create({ name: "n".repeat(100) })).body.data.name).toBe("n".repeat(100));
  });

  it.each([["n".repeat(101)], [""], ["   "], [null], [5]])(
    "refuses the name %j with invalid_field on name",
    async (name) => {
      const res = await create({ name });
      expectError(res, 400, "invalid_field");
      expect(new Set(errorFields(res))).toEqual(new Set(["name"]));
    },
  );

  it("requires a name", async () => {
    const res = await create({});
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["name"]);
  });

  it("refuses unknown fields and fields set by the service", async () => {
    for (const extra of [{ colour: "red" }, { status: "archived" }, { id: newId("dsg") }]) {
      const res = await create({ name: "X", ...extra });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(Object.keys(extra));
    }
  });

  it("refuses a body that is not JSON", async () => {
    const res = await call(collection.POST, "POST", "/discount-groups", {
      key: await admin(),
      rawBody: "{name:",
      headers: { "content-type": "application/json" },
    });
    expectError(res, 400, "bad_request");
  });
});

describe("GET /discount-groups/{discount_group_id}", () => {
  it("returns the discount group", async () => {
    const g = await createOk();
    const res = await get(g.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(res.body.data).toEqual(g);
  });

  it("returns archived groups too", async () => {
    const g = await createOk();
    await update(g.id, { status: "archived" });
    expect((await get(g.id)).body.data.status).toBe("archived");
  });

  it("is 404 for an unknown or malformed ID", async () => {
    for (const id of [newId("dsg"), "dsg_123", "dsc_01aaaaaaaaaaaaaaaaaaaaaaaa", "DSG_01AAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const error = expectError(await get(id), 404, "not_found");
      expect(error.detail).toContain(id);
    }
  });
});

describe("PATCH /discount-groups/{discount_group_id}", () => {
  it("renames a group and writes discount_group.updated", async () => {
    const g = await createOk("Old");
    const res = await update(g.id, { name: "New" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toMatchObject({ id: g.id, name: "New", status: "active", created_at: g.created_at });
    expect(res.body.data.updated_at >= g.updated_at).toBe(true);
    expect((await get(g.id)).body.data).toEqual(res.body.data);
  });

  it("validates the name as on create", async () => {
    const g = await createOk();
    for (const name of ["", " ", "x".repeat(101), null]) {
      const res = await update(g.id, { name });
      expectError(res, 400, "invalid_field");
      expect(new Set(errorFields(res))).toEqual(new Set(["name"]));
    }
    expect((await update(g.id, { name: "x".repeat(100) })).status).toBe(200);
  });

  it("refuses a status other than active or archived, and unknown fields", async () => {
    const g = await createOk();
    for (const status of ["deleted", "expired", null]) {
      const res = await update(g.id, { status });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["status"]);
    }
    const res = await update(g.id, { description: "x" });
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["description"]);
  });

  it("archives; an archived group cannot be changed except to unarchive it", async () => {
    const g = await createOk("Keep");
    const archived = await update(g.id, { status: "archived" });
    expect(archived.status).toBe(200);
    expect(archived.body.data.status).toBe("archived");

    const error = expectError(await update(g.id, { name: "Changed" }), 400, "entity_archived");
    expect(error.detail).toContain(g.id);
    expectError(await update(g.id, { status: "archived" }), 400, "entity_archived");
    expectError(await update(g.id, {}), 400, "entity_archived");
    expect((await get(g.id)).body.data).toMatchObject({ name: "Keep", status: "archived" });

    // Unarchiving may change other fields in the same request.
    const back = await update(g.id, { status: "active", name: "Back" });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ name: "Back", status: "active" });
    expect((await update(g.id, { name: "Again" })).status).toBe(200);
  });

  it("is 404 for an unknown or malformed ID", async () => {
    expectError(await update(newId("dsg"), { name: "x" }), 404, "not_found");
    expectError(await update(newId("dsg"), { status: "archived" }), 404, "not_found");
    expectError(await update(newId("dsg"), { status: "active" }), 404, "not_found");
    expectError(await update("dsg_nope", { name: "x" }), 404, "not_found");
  });
});

describe("GET /discount-groups", () => {
  it("lists groups with the envelope and pagination meta", async () => {
    const g = await createOk("Listed");
    const res = await list(`?id=${g.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(res.body.data).toEqual([g]);
    expect(res.body.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 1 });
    expect(res.body.meta.pagination.next).toContain(`after=${g.id}`);
  });

  it("filters by several ids", async () => {
    const a = await createOk();
    const b = await createOk();
    await createOk();
    expect(ids(await list(`?id=${a.id},${b.id}`))).toEqual([a.id, b.id]);
    const res = await list("?id=dsg_bad");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["id[0]"]);
  });

  it("lists only active groups by default; status picks others", async () => {
    const active = await createOk();
    const archived = await createOk();
    await update(archived.id, { status: "archived" });
    const both = `${active.id},${archived.id}`;
    expect(ids(await list(`?id=${both}`))).toEqual([active.id]);
    expect(ids(await list(`?id=${both}&status=archived`))).toEqual([archived.id]);
    expect(ids(await list(`?id=${both}&status=active,archived`))).toEqual([active.id, archived.id]);
    const res = await list("?status=deleted");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)[0]).toMatch(/^status/);
  });

  it("orders by id either way and refuses other order_by fields", async () => {
    const made = [await createOk(), await createOk(), await createOk()].map((g) => g.id);
    const query = `?id=${made.join(",")}`;
    expect(ids(await list(query))).toEqual(made);
    expect(ids(await list(`${query}&order_by=id[ASC]`))).toEqual(made);
    expect(ids(await list(`${query}&order_by=id[DESC]`))).toEqual([...made].reverse());
    const res = await list("?order_by=name[ASC]");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["order_by"]);
  });

  it("pages with per_page and after, following meta.pagination.next", async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createOk(`Page ${i}`)).id);
    const query = `?id=${made.join(",")}&per_page=2`;
    const seen: string[] = [];
    let res = await list(query);
    for (let page = 0; page < 3; page++) {
      expect(res.status).toBe(200);
      expect(res.body.meta.pagination.per_page).toBe(2);
      expect(res.body.meta.pagination.estimated_total).toBe(5);
      seen.push(...ids(res));
      expect(res.body.meta.pagination.has_more).toBe(page < 2);
      if (page < 2)
        res = await call(collection.GET, "GET", nextPath(res.body.meta.pagination.next), { key: await admin() });
    }
    expect(seen).toEqual(made);
    expect(ids(await list(`?id=${made.join(",")}&after=${made[2]}`))).toEqual(made.slice(3));
  });

  it("caps per_page at 200 and refuses per_page below 1", async () => {
    expect((await list("?per_page=500")).body.meta.pagination.per_page).toBe(200);
    const res = await list("?per_page=0");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["per_page"]);
  });
});

describe("permissions", () => {
  const WITHOUT = permissionsWithout("discount_group.");

  it("GET /discount-groups needs discount_group.read; write implies read", async () => {
    await expectPermission((key) => list("", key), {
      permission: "discount_group.read",
      denied: [WITHOUT, ["discount.write"]],
      allowed: [["discount_group.read"], ["discount_group.write"]],
    });
  });

  it("POST /discount-groups needs discount_group.write", async () => {
    const before = await db().discountGroup.count();
    await expectForbidden(
      (key) => create({ name: "No" }, key),
      [WITHOUT, ["discount_group.read"]],
      "discount_group.write",
    );
    expect(await db().discountGroup.count()).toBe(before);
    await expectAllowed((key) => create({ name: "Yes" }, key), [["discount_group.write"]], 201);
  });

  it("GET /discount-groups/{id} needs discount_group.read; write implies read", async () => {
    const g = await createOk();
    await expectForbidden((key) => get(g.id, key), [WITHOUT, ["discount.read"]]);
    await expectAllowed((key) => get(g.id, key), [["discount_group.read"], ["discount_group.write"]], 200);
  });

  it("PATCH /discount-groups/{id} needs discount_group.write", async () => {
    const g = await createOk("Before");
    await expectForbidden(
      (key) => update(g.id, { name: "After" }, key),
      [WITHOUT, ["discount_group.read"]],
      "discount_group.write",
    );
    expect((await get(g.id)).body.data.name).toBe("Before");
    expect((await update(g.id, { name: "After" }, await testKey(["discount_group.write"]))).body.data.name).toBe(
      "After",
    );
  });

  it("refuses a request without a key (401) and checks the permission before the lookup (403, not 404)", async () => {
    const res = await call(collection.GET, "GET", "/discount-groups", { key: null });
    expectError(res, 401, "invalid_token");
    expectError(await get(newId("dsg"), await testKey(["product.read"])), 403, "forbidden");
  });
});

describe("methods", () => {
  it("answers 405 for methods the paths do not have", async () => {
    await expectMethodsNotAllowed(collection, ["PUT", "DELETE"], "/discount-groups");
    await expectMethodsNotAllowed(item, ["DELETE"], `/discount-groups/${newId("dsg")}`);
    await expectMethodsNotAllowed(item, ["POST"], `/discount-groups/${newId("dsg")}`);
  });
});

describe("events", () => {
  it("writes discount_group.created and discount_group.updated with the entity as returned", async () => {
    const g = await createOk("Evented");
    const renamed = await update(g.id, { name: "Renamed" });
    const archived = await update(g.id, { status: "archived" });
    const rows = await events(g.id);
    expect(rows.map((e) => e.eventType)).toEqual([
      "discount_group.created",
      "discount_group.updated",
      "discount_group.updated",
    ]);
    expect(rows[0]!.id).toMatch(/^evt_[a-z0-9]{26}$/);
    expect(rows[0]!.data).toEqual(g);
    expect(rows[1]!.data).toEqual(renamed.body.data);
    expect(rows[2]!.data).toEqual(archived.body.data);
  });

  it("writes no event for a refused create or update", async () => {
    const g = await createOk();
    await update(g.id, { status: "archived" });
    const before = await db().event.count();
    expectError(await create({ name: "" }), 400, "invalid_field");
    expectError(await update(g.id, { name: "x" }), 400, "entity_archived");
    expectError(await update(newId("dsg"), { name: "x" }), 404, "not_found");
    expect(await db().event.count()).toBe(before);
  });
});
