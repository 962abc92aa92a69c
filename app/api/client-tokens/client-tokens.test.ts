/** The client-side token endpoints, through the real route handlers on a real database. */
import { describe, expect, it } from "vitest";
import * as customers from "@/app/api/customers/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import {
  events,
  expectMaxLength,
  expectMethodsNotAllowed,
  expectOnlyEvent,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { ids, resource } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { clientTokenSchema } from "@/lib/schemas/client-token";
import * as item from "./[client_token_id]/route";
import * as collection from "./route";

const api = resource("/client-tokens", "client_token_id", collection, item);
const FIELDS = ["id", "token", "name", "description", "status", "revoked_at", "created_at", "updated_at"];
const RFC3339_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await api.create({ name: "Pricing page", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe("POST /client-tokens", () => {
  it("creates an active sandbox token: 201, the entity in the spec's shape, a client_token.created event", async () => {
    const res = await api.create({ name: "Pricing page", description: "Marketing site" });
    expect(res.status).toBe(201);
    const token = res.body.data;
    expect(Object.keys(token)).toEqual(FIELDS);
    expect(clientTokenSchema.strict().parse(token)).toBeTruthy();
    expect(token.id).toMatch(/^ctkn_[a-z0-9]{26}$/);
    expect(token.token).toMatch(/^test_[0-9a-f]{27}$/);
    expect(token).toMatchObject({
      name: "Pricing page",
      description: "Marketing site",
      status: "active",
      revoked_at: null,
    });
    expect(token.created_at).toMatch(RFC3339_MICROS);
    expect(token.updated_at).toBe(token.created_at);
    await expectOnlyEvent(token.id, "client_token.created", token);
  });

  it("description is optional and may be null; tokens are unique", async () => {
    const a = await createOk();
    const b = await createOk({ description: null });
    expect(a.description).toBeNull();
    expect(b.description).toBeNull();
    expect(a.token).not.toBe(b.token);
  });

  it("name: 1 to 150 characters, required, not blank; description at most 500", async () => {
    await expectMaxLength((name) => api.create({ name }), "name", 150, { status: 201 });
    expectFieldError(await api.create({ name: "" }), "name");
    expectFieldError(await api.create({ name: "   " }), "name");
    expectFieldError(await api.create({}), "name");
    expectFieldError(await api.create({ name: 5 }), "name");
    await expectMaxLength((description) => api.create({ name: "x", description }), "description", 500, {
      status: 201,
    });
  });

  it("refuses unknown fields and hostile input with field errors, never a 5xx, and writes nothing", async () => {
    const before = await query<{ n: number }>("SELECT count(*)::int AS n FROM client_tokens");
    expectFieldError(await api.create({ name: "x", token: "test_000000000000000000000000000" }), "token");
    expectFieldError(await api.create({ name: "x", status: "revoked" }), "status");
    expectFieldError(await api.create({ name: "a\u0000b" }), "name");
    expectFieldError(await api.create({ name: "ok\ud800" }), "name");
    expectFieldError(await api.create({ name: "x".repeat(100_000) }), "name");
    expectFieldError(await api.create({ name: ["x"] }), "name");
    expectFieldError(await api.create({ name: "x", description: { a: 1 } }), "description");
    const raw = await call(collection.POST as never, "POST", "/client-tokens", {
      key: await testKey(["client_token.write"]),
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expectError(raw, 400, "bad_request");
    const after = await query<{ n: number }>("SELECT count(*)::int AS n FROM client_tokens");
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("needs client_token.write (403 forbidden naming it); 401 without a key", async () => {
    await expectPermission((key) => api.create({ name: "p" }, key), {
      permission: "client_token.write",
      denied: [["client_token.read"], permissionsWithout("client_token.")],
      status: 201,
    });
    expectError(await api.create({ name: "p" }, null), 401, "invalid_token");
  });
});

describe("GET /client-tokens/{id}", () => {
  it("returns the token with its value (tokens are public)", async () => {
    const made = await createOk({ name: "Get me" });
    const res = await api.get(made.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(made);
  });

  it("404 for an unknown or malformed ID", async () => {
    expectNotFound(await api.get("ctkn_00000000000000000000000000"), "ctkn_00000000000000000000000000");
    expectNotFound(await api.get("ctm_00000000000000000000000000"));
    expectNotFound(await api.get("nonsense"));
  });

  it("needs client_token.read", async () => {
    const made = await createOk();
    await expectPermission((key) => api.get(made.id, "", key), {
      permission: "client_token.read",
      denied: [permissionsWithout("client_token.")],
      allowed: [["client_token.read"], ["client_token.write"]],
    });
  });
});

describe("PATCH /client-tokens/{id}", () => {
  it("revokes: status revoked, revoked_at = updated_at, one client_token.revoked event", async () => {
    const made = await createOk();
    const res = await api.update(made.id, { status: "revoked" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const revoked = res.body.data;
    expect(revoked).toMatchObject({ id: made.id, token: made.token, status: "revoked" });
    expect(revoked.revoked_at).toMatch(RFC3339_MICROS);
    expect(revoked.updated_at).toBe(revoked.revoked_at);
    const rows = await events(made.id);
    expect(rows.map((e) => e.eventType)).toEqual(["client_token.created", "client_token.revoked"]);
    expect(rows[1]!.data).toEqual(revoked);
    expect((await api.get(made.id)).body.data).toEqual(revoked);
  });

  it("revocation is one way: revoking twice or re-activating is 409 conflict, and changes nothing", async () => {
    const made = await createOk();
    const revoked = (await api.update(made.id, { status: "revoked" })).body.data;
    const again = expectError(await api.update(made.id, { status: "revoked" }), 409, "conflict");
    expect(again.detail).toContain("revoked");
    expectError(await api.update(made.id, { status: "active" }), 409, "conflict");
    expectError(await api.update(made.id, { name: "Renamed" }), 409, "conflict");
    expect((await api.get(made.id)).body.data).toEqual(revoked);
    expect((await events(made.id)).map((e) => e.eventType)).toEqual(["client_token.created", "client_token.revoked"]);
  });

  it("concurrent revocations: exactly one succeeds, one event", async () => {
    const made = await createOk();
    const results = await Promise.all(Array.from({ length: 5 }, () => api.update(made.id, { status: "revoked" })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    expect((await events(made.id)).filter((e) => e.eventType === "client_token.revoked")).toHaveLength(1);
  });

  it("status active on an active token changes nothing and emits nothing", async () => {
    const made = await createOk();
    const res = await api.update(made.id, { status: "active" });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(made);
    expect(await events(made.id)).toHaveLength(1);
  });

  it("renames (our extension): client_token.updated", async () => {
    const made = await createOk();
    const res = await api.update(made.id, { name: "Checkout page", description: "New" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "Checkout page",
      description: "New",
      status: "active",
      token: made.token,
    });
    expect((await events(made.id)).map((e) => e.eventType)).toEqual(["client_token.created", "client_token.updated"]);
  });

  it("refuses bad bodies with field errors", async () => {
    const made = await createOk();
    expectFieldError(await api.update(made.id, {}), "status");
    expectFieldError(await api.update(made.id, { status: "expired" }), "status");
    expectFieldError(await api.update(made.id, { status: null }), "status");
    expectFieldError(await api.update(made.id, { token: "test_x" }), "token");
    expectFieldError(await api.update(made.id, { name: "" }), "name");
    expectFieldError(await api.update(made.id, { name: "x".repeat(151) }), "name");
    expectFieldError(await api.update(made.id, { status: "revoked", name: "a\u0000" }), "name");
    expect((await api.get(made.id)).body.data).toEqual(made);
  });

  it("404 for an unknown token; needs client_token.write", async () => {
    expectNotFound(await api.update("ctkn_00000000000000000000000000", { status: "revoked" }));
    const made = await createOk();
    await expectPermission((key) => api.update(made.id, { name: "Renamed by key" }, key), {
      permission: "client_token.write",
      denied: [["client_token.read"], permissionsWithout("client_token.")],
    });
  });
});

describe("GET /client-tokens", () => {
  it("lists by id, filters by status, pages with after and per_page", async () => {
    const a = await createOk({ name: "list a" });
    const b = await createOk({ name: "list b" });
    const c = await createOk({ name: "list c" });
    await api.update(b.id, { status: "revoked" });

    const all = await api.list("?per_page=200");
    expect(all.status).toBe(200);
    const listed = ids(all);
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    for (const token of all.body.data) expect(Object.keys(token)).toEqual(FIELDS);

    const revoked = ids(await api.list("?status=revoked&per_page=200"));
    expect(revoked).toContain(b.id);
    expect(revoked).not.toContain(a.id);
    const active = ids(await api.list("?status=active&per_page=200"));
    expect(active).toEqual(expect.arrayContaining([a.id, c.id]));
    expect(active).not.toContain(b.id);
    const both = ids(await api.list("?status=active,revoked&per_page=200"));
    expect(both).toEqual(expect.arrayContaining([a.id, b.id, c.id]));

    const page = await api.list(`?after=${a.id}&per_page=1`);
    expect(page.body.data).toHaveLength(1);
    expect(page.body.meta.pagination.per_page).toBe(1);
    expect(page.body.meta.pagination.has_more).toBe(true);
    const desc = ids(await api.list("?order_by=id[DESC]&per_page=200"));
    expect(desc).toEqual([...listed].reverse());
  });

  it("refuses bad query parameters with field errors", async () => {
    expectFieldError(await api.list("?status=expired"), "status[0]");
    expectFieldError(await api.list("?per_page=0"), "per_page");
    expectFieldError(await api.list("?per_page=abc"), "per_page");
    expectFieldError(await api.list("?order_by=name[ASC]"), "order_by");
    expectFieldError(await api.list("?status=a%00b"), "status");
    for (const q of ["?after=x%ED%A0%80", "?after=%00", `?after=${"x".repeat(5000)}`, "?status=,,,"]) {
      expect((await api.list(q)).status).toBeLessThan(500);
    }
  });

  it("needs client_token.read; staff: a viewer reads, a developer writes, a viewer cannot", async () => {
    await expectPermission((key) => api.list("", key), {
      permission: "client_token.read",
      denied: [permissionsWithout("client_token.")],
    });
    const viewer = await staffSession("viewer");
    const list = await call(collection.GET as never, "GET", "/client-tokens", { headers: viewer.headers });
    expect(list.status).toBe(200);
    const refused = await call(collection.POST as never, "POST", "/client-tokens", {
      headers: viewer.headers,
      body: { name: "viewer" },
    });
    expectError(refused, 403, "forbidden");
    const developer = await staffSession("developer");
    const made = await call(collection.POST as never, "POST", "/client-tokens", {
      headers: developer.headers,
      body: { name: "developer" },
    });
    expect(made.status).toBe(201);
  });

  it("methods the paths lack: 405", async () => {
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/client-tokens");
    const made = await createOk();
    await expectMethodsNotAllowed(item, ["PUT", "POST", "DELETE"], `/client-tokens/${made.id}`, {
      client_token_id: made.id,
    });
  });
});

describe("a client-side token is not an API key", () => {
  it("as a Bearer credential on the API it is refused like any bad key: 401 invalid_token", async () => {
    const made = await createOk();
    for (const handler of [customers.GET, collection.GET]) {
      const res = await call(handler as never, "GET", "/customers", { key: made.token });
      expectError(res, 401, "invalid_token");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
  });
});
