/** The audit log: written by the route wrapper for successful changes only; read by owners and admins. */
import { describe, expect, it } from "vitest";
import * as apiKeys from "@/app/api/api-keys/route";
import * as customer from "@/app/api/customers/[customer_id]/route";
import * as customers from "@/app/api/customers/route";
import * as accept from "@/app/api/team/invites/accept/route";
import * as invites from "@/app/api/team/invites/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, nextPath, testKey, testKeyWithId } from "@/lib/dev/test/api";
import { staffSession } from "@/lib/dev/test/staff";
import { purgeAuditLog, recordSignIn } from "@/lib/services/team/audit-log";
import * as auditLog from "./route";

async function entriesFor(entityId: string) {
  return query<Record<string, any>>(`SELECT * FROM audit_log WHERE entity_id = $1 ORDER BY id`, [entityId]);
}

async function count(): Promise<number> {
  const [row] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log`);
  return row!.n;
}

describe("audit log: what is recorded", () => {
  it("records a staff member's creation with their email, the created ID, address and user agent", async () => {
    const staff = await staffSession("admin");
    const res = await call(customers.POST, "POST", "/customers", {
      body: { email: "audited@example.com" },
      headers: { ...staff.headers, "user-agent": "AuditTest/1.0" },
    });
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    const [entry] = await entriesFor(id);
    expect(entry).toMatchObject({
      actor_type: "user",
      actor_id: staff.userId,
      actor_label: `${staff.userId}@staff.example.com`,
      action: "POST /api/customers",
      entity_id: id,
      status: 201,
      request_id: res.body.meta.request_id,
      user_agent: "AuditTest/1.0",
    });
    expect(entry!.client_address).toBeTruthy();
  });

  it("records an API key's update under the key's name, with the path's ID", async () => {
    const { id: keyId, key } = await testKeyWithId();
    const created = await call(customers.POST, "POST", "/customers", { key, body: { email: "k@example.com" } });
    const id = created.body.data.id as string;
    const res = await call(customer.PATCH, "PATCH", `/customers/${id}`, {
      key,
      body: { name: "Renamed" },
      params: { customer_id: id },
    });
    expect(res.status).toBe(200);
    const entries = await entriesFor(id);
    expect(entries.map((e) => e.action)).toEqual(["POST /api/customers", `PATCH /api/customers/${id}`]);
    expect(entries[1]).toMatchObject({ actor_type: "api_key", actor_id: keyId, actor_label: "test", status: 200 });
  });

  it("records no secrets and takes the actor from the credentials, never from the request", async () => {
    const owner = await staffSession("owner");
    const created = await call(apiKeys.POST, "POST", "/api-keys", {
      headers: { ...owner.headers, "x-actor-id": "usr_forged", "user-agent": "AuditTest/secret" },
      body: { name: "audited key", permissions: ["customer.read"] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const secret = created.body.data.key as string;
    const invitation = await call(invites.POST, "POST", "/team/invites", {
      headers: owner.headers,
      body: { email: `audited-${Date.now()}@example.com`, role: "viewer" },
    });
    const token = (invitation.body.data.url as string).split("/invite/")[1];
    const password = "correct horse battery staple 42";
    const joined = await call(accept.POST, "POST", "/team/invites/accept", { body: { token, password } });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const rows = await query<Record<string, unknown>>(
      `SELECT * FROM audit_log WHERE entity_id IN ($1, $2) OR actor_id = $3`,
      [created.body.data.id, invitation.body.data.id, joined.body.data.id],
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const text = JSON.stringify(rows);
    for (const leaked of [secret, secret.slice(-12), token, password]) expect(text).not.toContain(leaked);
    const keyEntry = rows.find((r) => r.entity_id === created.body.data.id);
    expect(keyEntry).toMatchObject({ actor_type: "user", actor_id: owner.userId, action: "POST /api/api-keys" });
  });

  it("records no GETs, no refusals and no failed changes", async () => {
    const key = await testKey();
    const viewer = await staffSession("viewer");
    const before = await count();
    await call(customers.GET, "GET", "/customers", { key });
    expect((await call(customers.POST, "POST", "/customers", { key, body: { email: "nope" } })).status).toBe(400);
    const refused = await call(customers.POST, "POST", "/customers", {
      body: { email: "viewer@example.com" },
      headers: viewer.headers,
    });
    expect(refused.status).toBe(403);
    expect((await call(customers.POST, "POST", "/customers", { body: { email: "anon@example.com" } })).status).toBe(
      401,
    );
    expect(await count()).toBe(before);
  });

  it("records sign-ins, naming only accounts that exist", async () => {
    const staff = await staffSession("viewer");
    const email = `${staff.userId}@staff.example.com`;
    await recordSignIn(email, { id: staff.userId, email }, { clientAddress: "203.0.113.9", userAgent: "UA" });
    await recordSignIn(email, null, { clientAddress: "203.0.113.9", userAgent: "UA" });
    await recordSignIn("nobody@example.com", null, { clientAddress: "203.0.113.9", userAgent: "UA" });
    const rows = await query<Record<string, any>>(
      `SELECT action, actor_id, actor_label, status FROM audit_log WHERE action LIKE 'sign_in%' ORDER BY id`,
    );
    expect(rows).toEqual([
      { action: "sign_in", actor_id: staff.userId, actor_label: email, status: 200 },
      { action: "sign_in_failed", actor_id: staff.userId, actor_label: email, status: 401 },
      { action: "sign_in_failed", actor_id: null, actor_label: null, status: 401 },
    ]);
  });
});

describe("audit log: retention", () => {
  it("the purge deletes entries older than a year and keeps the rest", async () => {
    await query(
      `INSERT INTO audit_log (id, occurred_at, actor_type, action, status) VALUES
         ('aud_old', now() - interval '366 days', 'user', 'POST /api/x', 200),
         ('aud_recent', now() - interval '364 days', 'user', 'POST /api/x', 200)`,
    );
    expect(await purgeAuditLog()).toBeGreaterThanOrEqual(1);
    const ids = (await query<{ id: string }>(`SELECT id FROM audit_log WHERE id IN ('aud_old', 'aud_recent')`)).map(
      (r) => r.id,
    );
    expect(ids).toEqual(["aud_recent"]);
  });
});

describe("GET /api/audit-log", () => {
  it("is for owners, admins and keys with audit_log.read", async () => {
    for (const role of ["developer", "viewer"] as const) {
      const staff = await staffSession(role);
      expectError(await call(auditLog.GET, "GET", "/audit-log", { headers: staff.headers }), 403, "forbidden");
    }
    const noRead = await testKey(["customer.read"]);
    expectError(await call(auditLog.GET, "GET", "/audit-log", { key: noRead }), 403, "forbidden");
    for (const role of ["owner", "admin"] as const) {
      const staff = await staffSession(role);
      expect((await call(auditLog.GET, "GET", "/audit-log", { headers: staff.headers })).status).toBe(200);
    }
    const reader = await testKey(["audit_log.read"]);
    expect((await call(auditLog.GET, "GET", "/audit-log", { key: reader })).status).toBe(200);
  });

  it("filters by actor, entity, action and time, newest first, in keyset pages", async () => {
    const staff = await staffSession("owner");
    const email = `${staff.userId}@staff.example.com`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(customers.POST, "POST", "/customers", {
        body: { email: `filter${i}@example.com` },
        headers: staff.headers,
      });
      ids.push(res.body.data.id);
    }
    const key = await testKey(["audit_log.read"]);
    const byActor = await call(auditLog.GET, "GET", `/audit-log?actor=${encodeURIComponent(email.toUpperCase())}`, {
      key,
    });
    expect(byActor.body.data.map((e: any) => e.entity_id)).toEqual([...ids].reverse());
    const byId = await call(auditLog.GET, "GET", `/audit-log?actor=${staff.userId}&per_page=2`, { key });
    expect(byId.body.data).toHaveLength(2);
    expect(byId.body.meta.pagination.has_more).toBe(true);
    const next = await call(auditLog.GET, "GET", nextPath(byId.body.meta.pagination.next), { key });
    expect(next.body.data.map((e: any) => e.entity_id)).toEqual([ids[0]]);
    const byEntity = await call(auditLog.GET, "GET", `/audit-log?entity_id=${ids[1]}`, { key });
    expect(byEntity.body.data).toHaveLength(1);
    expect(Object.keys(byEntity.body.data[0])).toEqual([
      "id",
      "occurred_at",
      "actor_type",
      "actor_id",
      "actor_label",
      "action",
      "entity_id",
      "status",
      "request_id",
      "client_address",
      "user_agent",
      "detail",
    ]);
    const byAction = await call(auditLog.GET, "GET", `/audit-log?actor=${staff.userId}&action=POST%20/api/cust*`, {
      key,
    });
    expect(byAction.body.data).toHaveLength(3);
    const future = await call(auditLog.GET, "GET", "/audit-log?occurred_at[GTE]=2999-01-01T00:00:00Z", { key });
    expect(future.body.data).toEqual([]);
    const past = await call(
      auditLog.GET,
      "GET",
      `/audit-log?actor=${staff.userId}&occurred_at[LT]=2999-01-01T00:00:00Z`,
      {
        key,
      },
    );
    expect(past.body.data).toHaveLength(3);
  });

  it("refuses bad filters with the field named, never a 500", async () => {
    const key = await testKey(["audit_log.read"]);
    expectFieldError(
      await call(auditLog.GET, "GET", "/audit-log?occurred_at[GTE]=yesterday", { key }),
      "occurred_at[GTE]",
    );
    expectFieldError(await call(auditLog.GET, "GET", "/audit-log?actor_type=robot", { key }), "actor_type");
    expectFieldError(await call(auditLog.GET, "GET", `/audit-log?action=${"x".repeat(301)}`, { key }), "action");
    for (const hostile of ["%27%20OR%201=1--", "%25", "%5C", "a%00b", "*"]) {
      const res = await call(
        auditLog.GET,
        "GET",
        `/audit-log?action=${hostile}&actor=${hostile}&entity_id=${hostile}`,
        {
          key,
        },
      );
      expect(res.status, hostile).toBeLessThan(500);
    }
  });
});
