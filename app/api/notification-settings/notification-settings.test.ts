/**
 * Every notification setting (destination) endpoint, through the real route handlers on a real
 * database.
 *   GET/POST         /notification-settings
 *   GET/PATCH/DELETE /notification-settings/{notification_setting_id}
 */
import { beforeEach, describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import {
  type ApiResult,
  call,
  errorFields,
  expectError,
  expectFieldError,
  expectNotFound,
  testKey,
} from "@/lib/dev/test/api";
import {
  expectAllowed,
  expectForbidden,
  expectMaxLength,
  expectMethodsNotAllowed,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { admin, ids, type Key, resource } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { EVENT_TYPES } from "@/lib/events/catalogue";
import { newId } from "@/lib/ids";
import { createCustomer } from "@/lib/services/customers";
import { createNotificationSetting } from "@/lib/services/notification-settings";
import * as item from "./[notification_setting_id]/route";
import * as collection from "./route";

const FIELDS = [
  "id",
  "description",
  "type",
  "destination",
  "active",
  "api_version",
  "include_sensitive_fields",
  "subscribed_events",
  "endpoint_secret_key",
  "traffic_source",
  "created_at",
  "updated_at",
];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const SECRET = /^svc_ntfset_[a-z0-9]{26}_[A-Za-z0-9]{32}$/;
const VALID = {
  description: "Order events",
  destination: "https://example.com/hooks/billing",
  subscribed_events: ["transaction.completed", "customer.created"],
};

const api = resource("/notification-settings", "notification_setting_id", collection, item);
const { create, update, list } = api;
const get = (id: string, key?: Key) => api.get(id, "", key);

async function remove(id: string, key?: Key): Promise<ApiResult> {
  return call(item.DELETE, "DELETE", `/notification-settings/${id}`, {
    key: key === undefined ? await admin() : key,
    params: { notification_setting_id: id },
  });
}

async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await create({ ...VALID, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

function catalogued(name: string) {
  const type = EVENT_TYPES.find((t) => t.name === name);
  if (!type) throw new Error(name);
  return type;
}

async function countRows(table: string, where = "TRUE", values: unknown[] = []): Promise<number> {
  const [row] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, values);
  return row!.n;
}

/** Delivery jobs queued for a notification (the queue's `jobs` view has no payload). */
function jobsFor(notificationId: string): Promise<number> {
  return countRows(
    "graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id",
    "k.identifier = 'deliver_notification' AND j.payload->>'id' = $1",
    [notificationId],
  );
}

// Each test starts without destinations: the active limit is account-wide.
beforeEach(async () => {
  await query("DELETE FROM notification_settings");
});

describe("POST /notification-settings", () => {
  it("creates a destination: 201, the envelope, the fields in order, defaults, event type objects", async () => {
    await admin(); // its api_key.created event comes first
    const events = await countRows("events");
    const res = await create(VALID);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(typeof res.body.meta.request_id).toBe("string");
    const s = res.body.data;
    expect(Object.keys(s)).toEqual(FIELDS);
    expect(s.id).toMatch(/^ntfset_[a-z0-9]{26}$/);
    expect(s).toMatchObject({
      description: "Order events",
      type: "url",
      destination: "https://example.com/hooks/billing",
      active: true,
      api_version: 1,
      include_sensitive_fields: false,
      traffic_source: "platform",
    });
    // The objects of the catalogue, in the order sent, each with its fields in the catalogue's order.
    expect(s.subscribed_events).toEqual([catalogued("transaction.completed"), catalogued("customer.created")]);
    expect(Object.keys(s.subscribed_events[0])).toEqual(["name", "description", "group", "available_versions"]);
    expect(s.endpoint_secret_key).toMatch(SECRET);
    expect(s.created_at).toMatch(TIMESTAMP);
    expect(s.updated_at).toBe(s.created_at);
    // The API family has no notification setting events.
    expect(await countRows("events")).toBe(events);
  });

  it("takes every optional field", async () => {
    const s = await createOk({
      type: "email",
      destination: "ops@example.com",
      api_version: 1,
      include_sensitive_fields: true,
      traffic_source: "all",
      active: false,
      subscribed_events: ["subscription.created"],
    });
    expect(s).toMatchObject({
      type: "email",
      destination: "ops@example.com",
      api_version: 1,
      include_sensitive_fields: true,
      traffic_source: "all",
      active: false,
    });
    expect((await createOk({ traffic_source: "simulation" })).traffic_source).toBe("simulation");
    expect((await createOk({ type: "url", destination: "http://localhost:4000/hook" })).type).toBe("url");
  });

  it("gives each destination its own secret", async () => {
    const a = await createOk();
    const b = await createOk();
    expect(a.endpoint_secret_key).not.toBe(b.endpoint_secret_key);
  });

  it("requires description, destination and subscribed_events", async () => {
    const res = await create({});
    expectError(res, 400, "invalid_field");
    expect(new Set(errorFields(res))).toEqual(new Set(["description", "destination", "subscribed_events"]));
  });

  it("takes descriptions of 1 to 500 characters", async () => {
    expect((await createOk({ description: "A" })).description).toBe("A");
    await expectMaxLength((description) => create({ ...VALID, description }), "description", 500, { status: 201 });
    for (const description of ["", "   ", null, 5])
      expectFieldError(await create({ ...VALID, description }), "description");
  });

  it("takes destinations of up to 2048 characters", async () => {
    const base = "https://example.com/";
    const ok = await create({ ...VALID, destination: base + "x".repeat(2048 - base.length) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.data.destination).toHaveLength(2048);
    const long = await create({ ...VALID, destination: base + "x".repeat(2049 - base.length) });
    expectFieldError(long, "destination");
    expect(errorFields(long)).toEqual(["destination"]);
    expectFieldError(await create({ ...VALID, destination: "" }), "destination");
    expectFieldError(await create({ ...VALID, destination: 42 }), "destination");
  });

  it.each([
    ["not a url", "must be a valid URL"],
    ["example.com/hook", "must be a valid URL"],
    ["ftp://example.com/hook", "must be an http or https URL"],
    ["mailto:ops@example.com", "must be an http or https URL"],
    ["https://user:secret@example.com/hook", "must not contain credentials"],
  ])("refuses the url destination %j", async (destination, message) => {
    const res = await create({ ...VALID, destination });
    const error = expectFieldError(res, "destination");
    expect(error.errors).toEqual([{ field: "destination", message }]);
  });

  it("checks an email destination as an email address", async () => {
    const res = await create({ ...VALID, type: "email", destination: "https://example.com/hook" });
    expect(expectFieldError(res, "destination").errors?.[0]?.message).toBe("must be a valid email address");
    expectFieldError(await create({ ...VALID, type: "email", destination: "ops@" }), "destination");
    expect((await createOk({ type: "email", destination: "billing.ops+hooks@example.com" })).type).toBe("email");
  });

  it("checks subscribed_events: a non-empty list of known event types, none twice", async () => {
    const cases: [unknown, string][] = [
      [[], "subscribed_events"],
      ["customer.created", "subscribed_events"],
      [null, "subscribed_events"],
      [["customer.created", "customer.deleted"], "subscribed_events[1]"],
      [["Customer.Created"], "subscribed_events[0]"],
      [[5], "subscribed_events[0]"],
      [["customer.created", "transaction.completed", "customer.created"], "subscribed_events[2]"],
    ];
    for (const [subscribed_events, field] of cases) {
      const res = await create({ ...VALID, subscribed_events });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res), JSON.stringify(subscribed_events)).toEqual([field]);
    }
    // Every event type of the catalogue at once.
    const all = EVENT_TYPES.map((t) => t.name);
    expect((await createOk({ subscribed_events: all })).subscribed_events).toEqual(EVENT_TYPES);
  });

  it.each([
    ["type", "sms"],
    ["type", null],
    ["traffic_source", "everything"],
    ["traffic_source", "PLATFORM"],
    ["api_version", 0],
    ["api_version", 2],
    ["api_version", -1],
    ["api_version", 1.5],
    ["api_version", "1"],
    ["include_sensitive_fields", "yes"],
    ["include_sensitive_fields", null],
    ["active", "true"],
  ])("refuses %s = %j with invalid_field naming it", async (field, value) => {
    const res = await create({ ...VALID, [field]: value });
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual([field]);
  });

  it("refuses unknown fields and fields set by the service", async () => {
    for (const extra of [
      { colour: "red" },
      { id: newId("ntfset") },
      { endpoint_secret_key: "svc_ntfset_x" },
      { rotate_endpoint_secret_key: true },
      { created_at: "2030-01-01T00:00:00Z" },
    ]) {
      const res = await create({ ...VALID, ...extra });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(Object.keys(extra));
    }
    expect(await countRows("notification_settings")).toBe(0);
  });

  it("refuses the NUL character, which PostgreSQL cannot store, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ description: "a\u0000b" }, "description"],
      [{ destination: "https://example.com/\u0000" }, "destination"],
      [{ subscribed_events: ["customer.created", "customer.created\u0000"] }, "subscribed_events[1]"],
      [{ "col\u0000our": "red" }, "col\u0000our"],
    ];
    for (const [body, field] of cases) {
      const res = await create({ ...VALID, ...body });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual([field]);
    }
    const s = await createOk();
    expect(errorFields(await update(s.id, { description: "\u0000" }))).toEqual(["description"]);
    expect(errorFields(await list("?after=%00"))).toEqual(["after"]);
    expect(await countRows("notification_settings")).toBe(1);
  });

  it("answers a deeply nested body with a 4xx", async () => {
    const depth = 100_000;
    const res = await call(collection.POST, "POST", "/notification-settings", {
      key: await admin(),
      rawBody: `{"nested":${"[".repeat(depth)}${"]".repeat(depth)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
  });

  it("refuses a body that is not JSON", async () => {
    const res = await call(collection.POST, "POST", "/notification-settings", {
      key: await admin(),
      rawBody: "{description:",
      headers: { "content-type": "application/json" },
    });
    expectError(res, 400, "bad_request");
  });
});

describe("in live", () => {
  /** Runs `fn` as a live deployment, with a live key. */
  async function asLive(fn: (key: string) => Promise<void>): Promise<void> {
    const before = process.env.BILLING_ENVIRONMENT;
    process.env.BILLING_ENVIRONMENT = "live";
    try {
      await fn(await testKey());
    } finally {
      process.env.BILLING_ENVIRONMENT = before;
    }
  }

  it("refuses destinations on private, loopback or link-local addresses", async () => {
    await asLive(async (key) => {
      for (const [destination, address] of [
        ["http://127.0.0.1/hook", "127.0.0.1"],
        ["https://10.1.2.3/hook", "10.1.2.3"],
        ["http://169.254.169.254/latest/meta-data", "169.254.169.254"],
        ["http://[::1]:8080/hook", "::1"],
        // Resolves to 127.0.0.1 or ::1, whichever the resolver lists first.
        ["http://localhost/hook", "resolves to"],
      ]) {
        const res = await create({ ...VALID, destination }, key);
        const error = expectFieldError(res, "destination");
        expect(errorFields(res)).toEqual(["destination"]);
        expect(error.errors?.[0]?.message).toContain(address);
        expect(error.errors?.[0]?.message).toContain("not a public address");
      }
      // A public address is fine (an IP literal: no DNS lookup needed).
      const ok = await create({ ...VALID, destination: "https://93.184.216.34/hook" }, key);
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      const res = await update(ok.body.data.id, { destination: "http://127.0.0.1/hook" }, key);
      expectFieldError(res, "destination");
      expect((await get(ok.body.data.id, key)).body.data.destination).toBe("https://93.184.216.34/hook");
    });
    expect(await countRows("notification_settings")).toBe(1);
  });

  it("the service refuses them too, whoever calls it", async () => {
    const before = process.env.BILLING_ENVIRONMENT;
    process.env.BILLING_ENVIRONMENT = "live";
    try {
      await expect(
        createNotificationSetting({
          ...VALID,
          destination: "http://127.0.0.1/hook",
          type: "url",
          api_version: 1,
          include_sensitive_fields: false,
          traffic_source: "platform",
          active: true,
        }),
      ).rejects.toMatchObject({ code: "invalid_field", errors: [{ field: "destination" }] });
    } finally {
      process.env.BILLING_ENVIRONMENT = before;
    }
    // The sandbox allows them, for local development.
    expect((await createOk({ destination: "http://127.0.0.1/hook" })).destination).toBe("http://127.0.0.1/hook");
  });
});

describe("GET /notification-settings/{notification_setting_id}", () => {
  it("returns the destination, secret included", async () => {
    const s = await createOk();
    const res = await get(s.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(res.body.data).toEqual(s);
  });

  it("is 404 for an unknown or malformed ID", async () => {
    for (const id of [newId("ntfset"), "ntfset_123", newId("ntf"), "NTFSET_01AAAAAAAAAAAAAAAAAAAAAAAA"]) {
      expectNotFound(await get(id), id);
    }
  });
});

describe("PATCH /notification-settings/{notification_setting_id}", () => {
  it("changes each field and keeps the rest; no event", async () => {
    const s = await createOk();
    const events = await countRows("events");
    const res = await update(s.id, {
      description: "Renamed",
      destination: "https://example.org/new",
      api_version: 1,
      include_sensitive_fields: true,
      subscribed_events: ["subscription.updated", "customer.created", "address.created"],
      traffic_source: "all",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const u = res.body.data;
    expect(Object.keys(u)).toEqual(FIELDS);
    expect(u).toMatchObject({
      id: s.id,
      description: "Renamed",
      type: "url",
      destination: "https://example.org/new",
      active: true,
      include_sensitive_fields: true,
      traffic_source: "all",
      endpoint_secret_key: s.endpoint_secret_key,
      created_at: s.created_at,
    });
    expect(u.subscribed_events.map((t: { name: string }) => t.name)).toEqual([
      "subscription.updated",
      "customer.created",
      "address.created",
    ]);
    expect(u.updated_at > s.updated_at).toBe(true);
    expect((await get(s.id)).body.data).toEqual(u);
    expect((await update(s.id, {})).body.data).toMatchObject({ description: "Renamed", active: true });
    expect(await countRows("events")).toBe(events);
  });

  it("rotates the secret on request", async () => {
    const s = await createOk();
    const res = await update(s.id, { rotate_endpoint_secret_key: true });
    expect(res.status).toBe(200);
    expect(res.body.data.endpoint_secret_key).toMatch(SECRET);
    expect(res.body.data.endpoint_secret_key).not.toBe(s.endpoint_secret_key);
    expect((await get(s.id)).body.data.endpoint_secret_key).toBe(res.body.data.endpoint_secret_key);
    for (const value of [false, "yes", null]) {
      const bad = await update(s.id, { rotate_endpoint_secret_key: value });
      expectError(bad, 400, "invalid_field");
      expect(errorFields(bad)).toEqual(["rotate_endpoint_secret_key"]);
    }
  });

  it("validates fields as on create and changes nothing when one is refused", async () => {
    const s = await createOk();
    const cases: [Record<string, unknown>, string][] = [
      [{ description: "" }, "description"],
      [{ description: "d".repeat(501) }, "description"],
      [{ destination: "ftp://example.com/x" }, "destination"],
      [{ destination: `https://example.com/${"x".repeat(2029)}` }, "destination"],
      [{ subscribed_events: [] }, "subscribed_events"],
      [{ subscribed_events: ["customer.created", "customer.created"] }, "subscribed_events[1]"],
      [{ subscribed_events: ["nope.nope"] }, "subscribed_events[0]"],
      [{ api_version: 0 }, "api_version"],
      [{ api_version: 2 }, "api_version"],
      [{ traffic_source: "some" }, "traffic_source"],
      [{ include_sensitive_fields: 1 }, "include_sensitive_fields"],
      [{ active: "false" }, "active"],
      // The type cannot change after creation; nor can the service's own fields be set.
      [{ type: "email" }, "type"],
      [{ endpoint_secret_key: "x" }, "endpoint_secret_key"],
      [{ description: "ok", colour: "red" }, "colour"],
    ];
    for (const [body, field] of cases) {
      const res = await update(s.id, body);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res), JSON.stringify(body)).toEqual([field]);
    }
    expect((await get(s.id)).body.data).toEqual(s);
    expect((await update(s.id, { description: "d".repeat(500) })).status).toBe(200);
    expect((await update(s.id, { destination: `https://example.com/${"x".repeat(2028)}` })).status).toBe(200);
  });

  it("checks a new destination against the destination's type", async () => {
    const email = await createOk({ type: "email", destination: "ops@example.com" });
    const res = await update(email.id, { destination: "https://example.com/hook" });
    expect(expectFieldError(res, "destination").errors?.[0]?.message).toBe("must be a valid email address");
    expect((await update(email.id, { destination: "team@example.com" })).body.data.destination).toBe(
      "team@example.com",
    );
    const url = await createOk();
    expectFieldError(await update(url.id, { destination: "team@example.com" }), "destination");
  });

  it("deactivates and reactivates; reactivating queues the destination's pending notifications again", async () => {
    const s = await createOk({ subscribed_events: ["customer.created"] });
    await createCustomer({ email: `requeue-${Date.now()}@example.com` });
    const [pending] = await query<{ id: string }>("SELECT id FROM notifications WHERE notification_setting_id = $1", [
      s.id,
    ]);
    const [delivered] = await query<{ id: string }>(
      `INSERT INTO notifications (id, notification_setting_id, event_id, type, status, payload, occurred_at)
       SELECT $1, notification_setting_id, event_id, type, 'delivered', payload, occurred_at FROM notifications WHERE id = $2
       RETURNING id`,
      [newId("ntf"), pending!.id],
    );
    expect(await jobsFor(pending!.id)).toBe(1);

    const off = await update(s.id, { active: false });
    expect(off.body.data.active).toBe(false);
    // Switching off again, or on an active destination, queues nothing.
    await update(s.id, { active: false });
    expect(await jobsFor(pending!.id)).toBe(1);

    const on = await update(s.id, { active: true });
    expect(on.status).toBe(200);
    expect(on.body.data.active).toBe(true);
    expect(await jobsFor(pending!.id)).toBe(2);
    expect(await jobsFor(delivered!.id)).toBe(0);
    await update(s.id, { active: true, description: "Still on" });
    expect(await jobsFor(pending!.id)).toBe(2);
  });

  it("is 404 for an unknown or malformed ID", async () => {
    expectNotFound(await update(newId("ntfset"), { description: "x" }), "ntfset_");
    expectNotFound(await update(newId("ntfset"), { active: true }));
    expectNotFound(await update(newId("ntfset"), { destination: "https://example.com/x" }));
    expectNotFound(await update("ntfset_nope", { description: "x" }));
  });
});

describe("DELETE /notification-settings/{notification_setting_id}", () => {
  it("deletes the destination with its notifications and their logs: 204, no body", async () => {
    const s = await createOk({ subscribed_events: ["customer.created"] });
    const other = await createOk({ subscribed_events: ["customer.created"] });
    await createCustomer({ email: `deleted-${Date.now()}@example.com` });
    const [n] = await query<{ id: string }>("SELECT id FROM notifications WHERE notification_setting_id = $1", [s.id]);
    await query(
      `INSERT INTO notification_logs (id, notification_id, response_code, duration_ms, attempted_at)
       VALUES ($1, $2, 500, 12, now())`,
      [newId("ntflog"), n!.id],
    );

    const res = await remove(s.id);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expectNotFound(await get(s.id), s.id);
    expect(await countRows("notifications", "notification_setting_id = $1", [s.id])).toBe(0);
    expect(await countRows("notification_logs", "notification_id = $1", [n!.id])).toBe(0);
    // Other destinations keep theirs.
    expect(await countRows("notifications", "notification_setting_id = $1", [other.id])).toBe(1);
    expect(ids(await list())).toEqual([other.id]);

    expectNotFound(await remove(s.id), s.id);
  });

  it("is 404 for an unknown or malformed ID", async () => {
    expectNotFound(await remove(newId("ntfset")));
    expectNotFound(await remove("ntfset_x"));
  });

  it("frees an active slot", async () => {
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await createOk());
    expectError(await create(VALID), 400, "notification_maximum_active_settings_reached");
    expect((await remove(made[0]!.id)).status).toBe(204);
    await createOk();
  });
});

describe("the limit of 10 active destinations", () => {
  it("refuses an 11th active destination; an inactive one is allowed but cannot be activated", async () => {
    const made = [];
    for (let i = 0; i < 10; i++) made.push(await createOk({ description: `Destination ${i}` }));

    const error = expectError(await create(VALID), 400, "notification_maximum_active_settings_reached");
    expect(error.detail).toContain("10");
    expect(await countRows("notification_settings")).toBe(10);

    const inactive = await createOk({ active: false });
    expect(inactive.active).toBe(false);
    expect(await countRows("notification_settings")).toBe(11);

    expectError(await update(inactive.id, { active: true }), 400, "notification_maximum_active_settings_reached");
    expectError(
      await update(inactive.id, { active: true, description: "x" }),
      400,
      "notification_maximum_active_settings_reached",
    );
    expect((await get(inactive.id)).body.data).toEqual(inactive);

    // Active destinations at the limit can still be changed, and "activated" again (no change).
    expect((await update(made[0]!.id, { active: true, description: "Changed" })).status).toBe(200);
    // Other changes to the inactive one are fine.
    expect((await update(inactive.id, { description: "Waiting" })).status).toBe(200);

    expect((await update(made[1]!.id, { active: false })).status).toBe(200);
    const activated = await update(inactive.id, { active: true });
    expect(activated.status).toBe(200);
    expect(activated.body.data.active).toBe(true);
    expect(await countRows("notification_settings", "active")).toBe(10);
  });

  it("holds under concurrent creates and activations", async () => {
    for (let i = 0; i < 8; i++) await createOk();
    const inactive = await createOk({ active: false });
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => create(VALID)),
      update(inactive.id, { active: true }),
    ]);
    const ok = results.filter((r) => r.status === 200 || r.status === 201);
    const refused = results.filter((r) => r.status === 400);
    expect(ok).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const r of refused) expectError(r, 400, "notification_maximum_active_settings_reached");
    expect(await countRows("notification_settings", "active")).toBe(10);
  });
});

describe("GET /notification-settings", () => {
  it("lists destinations with the envelope and pagination meta, oldest first", async () => {
    const a = await createOk();
    const b = await createOk({ description: "Second" });
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(res.body.data).toEqual([a, b]);
    expect(res.body.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 2 });
    expect(res.body.meta.pagination.next).toContain(`after=${b.id}`);
  });

  it("filters by active", async () => {
    const on = await createOk();
    const off = await createOk({ active: false });
    expect(ids(await list("?active=true"))).toEqual([on.id]);
    expect(ids(await list("?active=false"))).toEqual([off.id]);
    expect(ids(await list())).toEqual([on.id, off.id]);
    for (const value of ["yes", "1", "TRUE", ""]) {
      const res = await list(`?active=${value}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["active"]);
    }
  });

  it("filters by traffic_source (exactly), alone or with active; refuses unknown values", async () => {
    const platform = await createOk({ traffic_source: "platform" });
    const simulation = await createOk({ traffic_source: "simulation" });
    const all = await createOk({ traffic_source: "all", active: false });
    expect(ids(await list("?traffic_source=platform"))).toEqual([platform.id]);
    expect(ids(await list("?traffic_source=simulation"))).toEqual([simulation.id]);
    expect(ids(await list("?traffic_source=all"))).toEqual([all.id]);
    expect(ids(await list("?traffic_source=all&active=true"))).toEqual([]);
    expect(ids(await list("?traffic_source=all&active=false"))).toEqual([all.id]);
    expect(ids(await list())).toEqual([platform.id, simulation.id, all.id]);
    for (const value of ["everything", "PLATFORM", "", "platform,all", "a%00b"]) {
      const res = await list(`?traffic_source=${value}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["traffic_source"]);
    }
  });

  it("orders by id either way and refuses other order_by fields", async () => {
    const made = [await createOk(), await createOk(), await createOk()].map((s) => s.id);
    expect(ids(await list("?order_by=id[ASC]"))).toEqual(made);
    expect(ids(await list("?order_by=id[DESC]"))).toEqual([...made].reverse());
    const res = await list("?order_by=description[ASC]");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["order_by"]);
  });

  it("pages with per_page and after, following meta.pagination.next", async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createOk({ description: `Page ${i}` })).id);
    const seen: string[] = [];
    let res = await list("?per_page=2");
    for (let page = 0; page < 3; page++) {
      expect(res.status).toBe(200);
      expect(res.body.meta.pagination).toMatchObject({ per_page: 2, estimated_total: 5, has_more: page < 2 });
      seen.push(...ids(res));
      if (page < 2) res = await api.follow(res);
    }
    expect(seen).toEqual(made);
    expect(ids(await list(`?after=${made[2]}`))).toEqual(made.slice(3));
    expect(ids(await list(`?order_by=id[DESC]&after=${made[2]}`))).toEqual([made[1], made[0]]);
  });

  it("caps per_page at 200 and refuses per_page below 1", async () => {
    expect((await list("?per_page=500")).body.meta.pagination.per_page).toBe(200);
    for (const value of ["0", "-1", "x"]) {
      const res = await list(`?per_page=${value}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["per_page"]);
    }
  });
});

describe("permissions", () => {
  const WITHOUT = permissionsWithout("notification_setting.");

  it("GET /notification-settings needs notification_setting.read; write implies read", async () => {
    await expectPermission((key) => list("", key), {
      permission: "notification_setting.read",
      denied: [WITHOUT, ["notification.write"]],
      allowed: [["notification_setting.read"], ["notification_setting.write"]],
    });
  });

  it("GET /notification-settings/{id} needs notification_setting.read", async () => {
    const s = await createOk();
    await expectForbidden((key) => get(s.id, key), [WITHOUT], "notification_setting.read");
    await expectAllowed((key) => get(s.id, key), [["notification_setting.read"], ["notification_setting.write"]], 200);
  });

  it("POST, PATCH and DELETE need notification_setting.write", async () => {
    const s = await createOk();
    const denied = [WITHOUT, ["notification_setting.read"]];
    await expectForbidden((key) => create(VALID, key), denied, "notification_setting.write");
    await expectForbidden((key) => update(s.id, { description: "No" }, key), denied, "notification_setting.write");
    await expectForbidden((key) => remove(s.id, key), denied, "notification_setting.write");
    expect((await get(s.id)).body.data).toEqual(s);
    expect(await countRows("notification_settings")).toBe(1);

    const key = await testKey(["notification_setting.write"]);
    expect((await create(VALID, key)).status).toBe(201);
    expect((await update(s.id, { description: "Yes" }, key)).status).toBe(200);
    expect((await remove(s.id, key)).status).toBe(204);
  });

  it("refuses requests without a key (401) and checks the permission before the lookup (403, not 404)", async () => {
    const id = newId("ntfset");
    expectError(await list("", null), 401, "invalid_token");
    expectError(await create(VALID, null), 401, "invalid_token");
    expectError(await get(id, null), 401, "invalid_token");
    expectError(await update(id, { description: "x" }, null), 401, "invalid_token");
    expectError(await remove(id, null), 401, "invalid_token");
    expectError(await get(id, await testKey(["product.read"])), 403, "forbidden");
    expectError(await remove(id, await testKey(["notification_setting.read"])), 403, "forbidden");
  });
});

describe("the signing secret is shown only to callers that may write destinations", () => {
  it("a key with notification_setting.read gets endpoint_secret_key null, in GET and in the list; the rest as is", async () => {
    const s = await createOk();
    const reader = await testKey(["notification_setting.read"]);
    const one = await get(s.id, reader);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body.data)).toEqual(FIELDS);
    expect(one.body.data.endpoint_secret_key).toBeNull();
    expect(one.body.data).toEqual({ ...s, endpoint_secret_key: null });
    const all = await list("", reader);
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([{ ...s, endpoint_secret_key: null }]);
    expect(JSON.stringify(all.body)).not.toContain(s.endpoint_secret_key);
    expect(JSON.stringify(one.body)).not.toContain(s.endpoint_secret_key);
  });

  it("a key with notification_setting.write sees it", async () => {
    const s = await createOk();
    const writer = await testKey(["notification_setting.write"]);
    expect((await get(s.id, writer)).body.data.endpoint_secret_key).toBe(s.endpoint_secret_key);
    expect((await list("", writer)).body.data[0].endpoint_secret_key).toBe(s.endpoint_secret_key);
    expect(s.endpoint_secret_key).toMatch(SECRET);
  });

  it("a viewer signed in to the dashboard does not see it; a developer does", async () => {
    const s = await createOk();
    const viewer = await staffSession("viewer");
    const asViewer = await call(item.GET, "GET", `/notification-settings/${s.id}`, {
      headers: viewer.headers,
      params: { notification_setting_id: s.id },
    });
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.data.endpoint_secret_key).toBeNull();
    const listed = await call(collection.GET, "GET", "/notification-settings", { headers: viewer.headers });
    expect(listed.body.data[0].endpoint_secret_key).toBeNull();

    const developer = await staffSession("developer");
    const asDeveloper = await call(item.GET, "GET", `/notification-settings/${s.id}`, {
      headers: developer.headers,
      params: { notification_setting_id: s.id },
    });
    expect(asDeveloper.body.data.endpoint_secret_key).toBe(s.endpoint_secret_key);
  });
});

describe("methods", () => {
  it("answers 405 for methods the paths do not have", async () => {
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/notification-settings");
    const id = newId("ntfset");
    await expectMethodsNotAllowed(item, ["PUT", "POST"], `/notification-settings/${id}`, {
      notification_setting_id: id,
    });
  });
});
