/** The API key endpoints, through the real route handlers on a real database. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as customers from "@/app/api/customers/route";
import { parseApiKey } from "@/lib/auth/api-key-format";
import { PERMISSIONS, rolePermissions } from "@/lib/auth/permissions";
import { db } from "@/lib/db/connection";
import { call, errorFields, expectError, nextPath, testKey } from "@/lib/dev/test/api";
import { events, expectAllowed, expectForbidden, permissionsWithout } from "@/lib/dev/test/checks";
import { admin, type Key, resource } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { newId } from "@/lib/ids";
import { apiKeySchema } from "@/lib/schemas/api-key";
import * as item from "./[api_key_id]/route";
import * as collection from "./route";

const FIELDS = [
  "id",
  "name",
  "description",
  "key",
  "status",
  "permissions",
  "expires_at",
  "last_used_at",
  "revoked_at",
  "created_at",
  "updated_at",
];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const api = resource("/api-keys", "api_key_id", collection, item);
const { create, update, list } = api;
const get = (id: string, key?: Key) => api.get(id, "", key);

async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await create({ name: "integration", permissions: ["customer.read"], ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The secret part of a full key (between the ID and the checksum). */
function secretOf(key: string): string {
  return key.split("_")[4]!;
}

function expectMasked(shown: string, full: string): void {
  expect(shown).not.toBe(full);
  expect(shown.length).toBeLessThan(full.length);
  expect(shown).not.toContain(secretOf(full));
  expect(shown.startsWith("svc_apikey_sdbx_")).toBe(true);
  expect(parseApiKey(shown)).toBeNull();
}

describe("POST /api-keys", () => {
  it("creates a key: 201, the whole 69-character key shown once", async () => {
    const res = await create({
      name: "Backend",
      description: "Our server",
      permissions: ["customer.read", "product.write"],
    });
    expect(res.status).toBe(201);
    const k = res.body.data;
    expect(Object.keys(k)).toEqual(FIELDS);
    expect(k.id).toMatch(/^apikey_[a-z0-9]{26}$/);
    expect(k.key).toHaveLength(69);
    expect(k.key.startsWith("svc_apikey_sdbx_")).toBe(true);
    expect(parseApiKey(k.key)).toEqual({ id: k.id, environment: "sandbox" });
    expect(k).toMatchObject({
      name: "Backend",
      description: "Our server",
      status: "active",
      permissions: ["customer.read", "product.write"],
      expires_at: null,
      last_used_at: null,
      revoked_at: null,
    });
    expect(k.created_at).toMatch(RFC3339);
    expect(k.updated_at).toMatch(RFC3339);
    expect(res.headers.get("x-request-id")).toBe(res.body.meta.request_id);
  });

  it("makes a key that works with exactly its permissions", async () => {
    const k = await createOk({ permissions: ["customer.read"] });
    expect((await call(customers.GET, "GET", "/customers", { key: k.key })).status).toBe(200);
    const denied = await call(customers.POST, "POST", "/customers", { key: k.key, body: { email: "x@example.com" } });
    expectError(denied, 403, "forbidden");
  });

  it("shows the key masked afterwards, in GET and in the list", async () => {
    const k = await createOk();
    const one = await get(k.id);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body.data)).toEqual(FIELDS);
    expectMasked(one.body.data.key, k.key);
    const { key: _full, ...rest } = k;
    const { key: _masked, ...restGet } = one.body.data;
    expect(restGet).toEqual(rest);

    const all = await list("?per_page=200");
    expect(all.status).toBe(200);
    const found = (all.body.data as { id: string; key: string }[]).find((x) => x.id === k.id);
    expect(found).toBeDefined();
    expectMasked(found?.key ?? "", k.key);
    for (const row of all.body.data as { key: string }[]) expect(parseApiKey(row.key)).toBeNull();
    expect(JSON.stringify(all.body)).not.toContain(secretOf(k.key));
  });

  it("stores only a hash of the key", async () => {
    const k = await createOk();
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: k.id } });
    expect(row.secretHash).toBe(createHash("sha256").update(k.key).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(secretOf(k.key));
  });

  it("sets expires_at when given a future date-time", async () => {
    const when = new Date(Date.now() + 7 * 86_400_000);
    const k = await createOk({ expires_at: when.toISOString() });
    expect(Date.parse(k.expires_at)).toBe(when.getTime());
    expect(k.expires_at).toMatch(RFC3339);
    expect(k.status).toBe("active");
  });

  describe("validation", () => {
    it("requires a name", async () => {
      const res = await create({ permissions: ["customer.read"] });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["name"]);
    });

    it.each([
      ["empty", ""],
      ["blank", "   "],
      ["151 characters", "n".repeat(151)],
    ])("refuses a name that is %s", async (_label, name) => {
      const res = await create({ name, permissions: ["customer.read"] });
      expectError(res, 400, "invalid_field");
      expect([...new Set(errorFields(res))]).toEqual(["name"]);
    });

    it("accepts names of 1 and 150 characters", async () => {
      expect((await create({ name: "n", permissions: ["customer.read"] })).status).toBe(201);
      const long = await create({ name: "n".repeat(150), permissions: ["customer.read"] });
      expect(long.status).toBe(201);
      expect(long.body.data.name).toHaveLength(150);
    });

    it("refuses an unknown permission", async () => {
      const res = await create({ name: "x", permissions: ["customer.read", "customer.delete"] });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res).every((f) => f.startsWith("permissions"))).toBe(true);
      expect(errorFields(res).length).toBeGreaterThan(0);
    });

    it("refuses an empty permission list", async () => {
      const res = await create({ name: "x", permissions: [] });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["permissions"]);
    });

    it("requires permissions", async () => {
      const res = await create({ name: "x" });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["permissions"]);
    });

    it("refuses expires_at in the past", async () => {
      const res = await create({
        name: "x",
        permissions: ["customer.read"],
        expires_at: new Date(Date.now() - 60_000).toISOString(),
      });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["expires_at"]);
    });

    it("refuses an expires_at that is not a date-time", async () => {
      const res = await create({ name: "x", permissions: ["customer.read"], expires_at: "tomorrow" });
      expectError(res, 400, "invalid_field");
      expect([...new Set(errorFields(res))]).toEqual(["expires_at"]);
    });

    it("refuses an unknown field", async () => {
      const res = await create({ name: "x", permissions: ["customer.read"], key: "svc_apikey_sdbx_chosen" });
      expectError(res, 400, "invalid_field");
    });

    it("creates nothing when invalid", async () => {
      const before = await db().apiKey.count();
      await create({ name: "", permissions: [] });
      await create({ name: "x", permissions: ["nope.read"] });
      expect(await db().apiKey.count()).toBe(before);
    });
  });
});

describe("GET /api-keys/{api_key_id}", () => {
  it.each([
    ["an unknown ID", () => newId("apikey")],
    ["a malformed ID", () => "apikey_123"],
    ["another entity's ID", () => newId("ctm")],
  ])("gives 404 not_found for %s", async (_label, makeId) => {
    const res = await get(makeId());
    expectError(res, 404, "not_found");
  });
});

describe("PATCH /api-keys/{api_key_id}", () => {
  it("updates the name and description", async () => {
    const k = await createOk();
    const res = await update(k.id, { name: "Renamed", description: "Now described" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: k.id, name: "Renamed", description: "Now described", status: "active" });
    expectMasked(res.body.data.key, k.key);
    // The key keeps working.
    expect((await call(customers.GET, "GET", "/customers", { key: k.key })).status).toBe(200);
  });

  it("revokes: status revoked, revoked_at set, the key gets 401, a second revoke is 409", async () => {
    const k = await createOk();
    expect((await call(customers.GET, "GET", "/customers", { key: k.key })).status).toBe(200);
    const res = await update(k.id, { status: "revoked" });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("revoked");
    expect(res.body.data.revoked_at).toMatch(RFC3339);
    expectMasked(res.body.data.key, k.key);

    const refused = await call(customers.GET, "GET", "/customers", { key: k.key });
    expectError(refused, 401, "invalid_token");
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);

    expectError(await update(k.id, { status: "revoked" }), 409, "conflict");
    expectError(await update(k.id, { name: "after revoke" }), 409, "conflict");
    expect((await get(k.id)).body.data.status).toBe("revoked");
  });

  it("lists a revoked key with status=revoked and not with status=active", async () => {
    const k = await createOk();
    await update(k.id, { status: "revoked" });
    const revoked = await list("?status=revoked&per_page=200");
    expect((revoked.body.data as { id: string }[]).map((x) => x.id)).toContain(k.id);
    const active = await list("?status=active&per_page=200");
    expect((active.body.data as { id: string }[]).map((x) => x.id)).not.toContain(k.id);
  });

  it("refuses any status other than revoked", async () => {
    const k = await createOk();
    for (const status of ["active", "expired", "deleted"]) {
      const res = await update(k.id, { status });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["status"]);
    }
  });

  it("refuses changing permissions or unknown fields", async () => {
    const k = await createOk();
    expectError(await update(k.id, { permissions: [...PERMISSIONS] }), 400, "invalid_field");
    expectError(await update(k.id, { name: "" }), 400, "invalid_field");
  });

  it.each([
    ["an unknown ID", () => newId("apikey")],
    ["a malformed ID", () => "apikey_zzz"],
  ])("gives 404 not_found for %s", async (_label, makeId) => {
    expectError(await update(makeId(), { status: "revoked" }), 404, "not_found");
  });
});

describe("GET /api-keys", () => {
  it("pages with next", async () => {
    for (let i = 0; i < 3; i++) await createOk({ name: `page ${i}` });
    const first = await list("?per_page=2");
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.meta.pagination).toMatchObject({ per_page: 2, has_more: true });
    const second = await call(collection.GET, "GET", nextPath(first.body.meta.pagination.next), { key: await admin() });
    expect(second.status).toBe(200);
    const firstIds = (first.body.data as { id: string }[]).map((x) => x.id);
    const secondIds = (second.body.data as { id: string }[]).map((x) => x.id);
    expect(secondIds.length).toBeGreaterThan(0);
    expect(secondIds[0]! > firstIds[1]!).toBe(true);
  });

  it("refuses an order_by on another field", async () => {
    const res = await list("?order_by=name[ASC]");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["order_by"]);
  });
});

describe("permissions", () => {
  const WITHOUT_API_KEY = permissionsWithout("api_key.");

  it("GET /api-keys needs api_key.read", async () => {
    const error = expectError(await list("", await testKey(WITHOUT_API_KEY)), 403, "forbidden");
    expect(error.detail).toContain("api_key.read");
    await expectAllowed((key) => list("", key), [["api_key.read"], ["api_key.write"]], 200);
  });

  it("GET /api-keys/{id} needs api_key.read", async () => {
    const k = await createOk();
    const error = expectError(await get(k.id, await testKey(WITHOUT_API_KEY)), 403, "forbidden");
    expect(error.detail).toContain("api_key.read");
    await expectAllowed((key) => get(k.id, key), [["api_key.read"], ["api_key.write"]], 200);
  });

  it("POST /api-keys needs api_key.write", async () => {
    const before = await db().apiKey.count();
    for (const perms of [WITHOUT_API_KEY, ["api_key.read"]]) {
      const key = await testKey(perms);
      const error = expectError(await create({ name: "x", permissions: ["customer.read"] }, key), 403, "forbidden");
      expect(error.detail).toContain("api_key.write");
    }
    expect(await db().apiKey.count()).toBe(before + 2);
    const ok = await create({ name: "x", permissions: ["api_key.read"] }, await testKey(["api_key.write"]));
    expect(ok.status).toBe(201);
  });

  it("PATCH /api-keys/{id} needs api_key.write", async () => {
    const k = await createOk();
    await expectForbidden(
      (key) => update(k.id, { status: "revoked" }, key),
      [WITHOUT_API_KEY, ["api_key.read"]],
      "api_key.write",
    );
    expect((await get(k.id)).body.data.status).toBe("active");
    const ok = await update(k.id, { name: "by writer" }, await testKey(["api_key.write"]));
    expect(ok.status).toBe(200);
  });

  it("needs a key at all", async () => {
    const res = await list("");
    expect(res.status).toBe(200);
    const none = await call(collection.GET, "GET", "/api-keys");
    expectError(none, 401, "invalid_token");
  });
});

describe("granting only what the caller holds", () => {
  const ESCALATION = ["customer.write", "transaction.write", "settings.write"];

  it("refuses a key with api_key.write alone granting other permissions: 403 naming them, no key made", async () => {
    const writer = await testKey(["api_key.write"]);
    const before = await db().apiKey.count();
    const res = await create({ name: "escalate", permissions: ["customer.read", ...ESCALATION] }, writer);
    const error = expectError(res, 403, "forbidden");
    for (const p of ["customer.read", ...ESCALATION]) expect(error.detail).toContain(p);
    expect(error.detail).not.toContain("api_key.write");
    expect(await db().apiKey.count()).toBe(before);
    expect(
      await db().event.count({ where: { eventType: "api_key.created", data: { path: ["name"], equals: "escalate" } } }),
    ).toBe(0);
  });

  it("names only the permissions the caller lacks", async () => {
    const caller = await testKey(["api_key.write", "customer.write"]);
    const res = await create({ name: "x", permissions: ["customer.write", "product.read", "product.write"] }, caller);
    const error = expectError(res, 403, "forbidden");
    expect(error.detail).toContain("product.read, product.write");
    expect(error.detail).not.toContain("customer.write");
  });

  it("lets a caller grant what it holds, read included in write", async () => {
    const caller = await testKey(["api_key.write", "customer.write", "product.read"]);
    const res = await create(
      { name: "subset", permissions: ["api_key.read", "customer.read", "customer.write", "product.read"] },
      caller,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // The new key can do what was granted, and no more.
    const key = res.body.data.key;
    expect((await call(customers.GET, "GET", "/customers", { key })).status).toBe(200);
    expectError(await create({ name: "again", permissions: ["settings.read"] }, key), 403, "forbidden");
  });

  it("refuses a read the caller lacks even when the caller holds other writes", async () => {
    const caller = await testKey(["api_key.write", "customer.write"]);
    expectError(await create({ name: "x", permissions: ["transaction.read"] }, caller), 403, "forbidden");
  });

  it("lets an all-permission key grant everything", async () => {
    const res = await create({ name: "all", permissions: [...PERMISSIONS] }, await testKey(PERMISSIONS));
    expect(res.status).toBe(201);
  });

  it("refuses a developer signed in to the dashboard minting a key beyond the developer role", async () => {
    const developer = await staffSession("developer");
    const before = await db().apiKey.count();
    const res = await call(collection.POST, "POST", "/api-keys", {
      headers: developer.headers,
      body: { name: "dev escalation", permissions: ["customer.read", ...ESCALATION] },
    });
    const error = expectError(res, 403, "forbidden");
    for (const p of ESCALATION) expect(error.detail).toContain(p);
    expect(error.detail).not.toContain("customer.read");
    expect(await db().apiKey.count()).toBe(before);

    // What the role holds can be granted: every read and the developer's writes.
    const held = [...rolePermissions("developer")].sort();
    const ok = await call(collection.POST, "POST", "/api-keys", {
      headers: developer.headers,
      body: { name: "dev key", permissions: held },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.permissions).toEqual(held);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: ok.body.data.id } })).createdBy).toBe(developer.userId);
    // And that key cannot write customers.
    expectError(
      await call(customers.POST, "POST", "/customers", { key: ok.body.data.key, body: { email: "dev@example.com" } }),
      403,
      "forbidden",
    );
  });

  it("lets an owner signed in to the dashboard grant everything", async () => {
    const owner = await staffSession("owner");
    const res = await call(collection.POST, "POST", "/api-keys", {
      headers: owner.headers,
      body: { name: "owner key", permissions: [...PERMISSIONS] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("still refuses unknown permissions with invalid_field before looking at the caller's", async () => {
    const res = await create({ name: "x", permissions: ["customer.delete"] }, await testKey(["api_key.write"]));
    expectError(res, 400, "invalid_field");
  });
});

describe("concurrent revocations", () => {
  it("ten at once: exactly one revokes (one event, one revoked_at), the others get 409 conflict", async () => {
    const k = await createOk();
    const results = await Promise.all(Array.from({ length: 10 }, () => update(k.id, { status: "revoked" })));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expectError(r, 409, "conflict");
    const revokedEvents = await db().event.findMany({ where: { entityId: k.id, eventType: "api_key.revoked" } });
    expect(revokedEvents).toHaveLength(1);
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: k.id } });
    expect(row.status).toBe("revoked");
    expect(ok[0]!.body.data.revoked_at).toBe((revokedEvents[0]!.data as { revoked_at: string }).revoked_at);
    expect(Date.parse(ok[0]!.body.data.revoked_at)).toBe(row.revokedAt?.getTime());
  });

  it("a rename racing a revocation never undoes it", async () => {
    const k = await createOk();
    const results = await Promise.all([
      update(k.id, { name: "renamed" }),
      update(k.id, { status: "revoked" }),
      update(k.id, { name: "renamed again" }),
    ]);
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect((await db().apiKey.findUniqueOrThrow({ where: { id: k.id } })).status).toBe("revoked");
    expect(await db().event.count({ where: { entityId: k.id, eventType: "api_key.revoked" } })).toBe(1);
  });
});

describe("the key's JSON, built by PostgreSQL (lib/db/entities/api-key.ts)", () => {
  it("parses strictly as the response schema in every answer and event; events show the masked key", async () => {
    const k = await createOk({ description: null, expires_at: "2099-01-02T03:04:05.123456Z" });
    expect(k.expires_at).toBe("2099-01-02T03:04:05.123456Z");
    const renamed = (await update(k.id, { name: "Renamed" })).body.data;
    const revoked = (await update(k.id, { status: "revoked" })).body.data;
    expect(revoked.revoked_at).toBe(revoked.updated_at); // one instant: the transaction's
    const listed = (await list("?per_page=200")).body.data as unknown[];
    for (const shown of [k, renamed, revoked, (await get(k.id)).body.data, ...listed]) {
      expect(apiKeySchema.strict().parse(shown)).toEqual(shown);
    }
    const written = await events(k.id);
    expect(written.map((e) => e.eventType)).toEqual(["api_key.created", "api_key.updated", "api_key.revoked"]);
    for (const event of written) {
      const data = apiKeySchema.strict().parse(event.data);
      expectMasked(data.key, k.key);
    }
    const { key: _full, ...created } = k;
    const { key: _masked, ...firstEvent } = written[0]!.data as Record<string, unknown>;
    expect(firstEvent).toEqual(created);
    expect(written[2]!.data).toEqual(revoked);
  });

  it("reports a key past its expires_at as expired, and lists it under status=expired only", async () => {
    const k = await createOk();
    await db().apiKey.update({ where: { id: k.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect((await get(k.id)).body.data.status).toBe("expired");
    const ids = async (status: string) =>
      ((await list(`?status=${status}&per_page=200`)).body.data as { id: string }[]).map((x) => x.id);
    expect(await ids("expired")).toContain(k.id);
    expect(await ids("active")).not.toContain(k.id);
    expect(await ids("revoked")).not.toContain(k.id);
    expect(await ids("active,expired")).toContain(k.id);
  });
});
