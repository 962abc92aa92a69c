/**
 * Every notification endpoint, through the real route handlers on a real database. Notifications
 * come from real changes (the fan-out trigger on events); delivery is the worker's, so its effects
 * (statuses, attempts) are written here with SQL.
 *   GET  /notifications
 *   GET  /notifications/{notification_id}
 *   GET  /notifications/{notification_id}/logs
 *   POST /notifications/{notification_id}/replay
 *   POST /notifications/{notification_id}/retry (ours)
 */
import { beforeEach, describe, expect, it } from "vitest";
import * as apiKeys from "@/app/api/api-keys/route";
import * as businesses from "@/app/api/customers/[customer_id]/businesses/route";
import * as customers from "@/app/api/customers/route";
import * as settings from "@/app/api/notification-settings/route";
import { forgetTotals, query } from "@/lib/db/sql";
import { type ApiResult, call, errorFields, expectError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { expectForbidden, expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin, ids, type Key, keyOf, walkPages } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { newId } from "@/lib/ids";
import * as logs from "./[notification_id]/logs/route";
import * as replay from "./[notification_id]/replay/route";
import * as retry from "./[notification_id]/retry/route";
import * as one from "./[notification_id]/route";
import * as many from "./route";

const FIELDS = [
  "id",
  "type",
  "status",
  "payload",
  "occurred_at",
  "delivered_at",
  "replayed_at",
  "origin",
  "last_attempt_at",
  "retry_at",
  "times_attempted",
  "notification_setting_id",
];
const LOG_FIELDS = [
  "id",
  "response_code",
  "response_content_type",
  "response_body",
  "attempted_at",
  "duration_ms",
  "error",
];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

async function list(queryString = "", key?: Key): Promise<ApiResult> {
  return call(many.GET, "GET", `/notifications${queryString}`, { key: await keyOf(key) });
}

async function get(id: string, key?: Key): Promise<ApiResult> {
  return call(one.GET, "GET", `/notifications/${id}`, { key: await keyOf(key), params: { notification_id: id } });
}

async function listLogs(id: string, queryString = "", key?: Key): Promise<ApiResult> {
  return call(logs.GET, "GET", `/notifications/${id}/logs${queryString}`, {
    key: await keyOf(key),
    params: { notification_id: id },
  });
}

async function replayOf(id: string, key?: Key): Promise<ApiResult> {
  return call(replay.POST, "POST", `/notifications/${id}/replay`, {
    key: await keyOf(key),
    params: { notification_id: id },
  });
}

async function retryNow(id: string, key?: Key): Promise<ApiResult> {
  return call(retry.POST, "POST", `/notifications/${id}/retry`, {
    key: await keyOf(key),
    params: { notification_id: id },
  });
}

async function follow(res: ApiResult, handler = many.GET, params?: Record<string, string>): Promise<ApiResult> {
  const url = new URL(res.body.meta.pagination.next);
  return call(handler, "GET", `${url.pathname.replace(/^\/api/, "")}${url.search}`, { key: await admin(), params });
}

/** A destination made through POST /notification-settings. */
async function destination(body: Record<string, unknown> = {}): Promise<string> {
  const res = await call(settings.POST, "POST", "/notification-settings", {
    key: await admin(),
    body: {
      description: "Test destination",
      destination: "https://example.com/hooks",
      subscribed_events: ["customer.created", "business.created"],
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

let emails = 0;

/** A real change: POST /customers, whose customer.created event fans out to destinations. */
async function newCustomer(): Promise<Record<string, any>> {
  emails += 1;
  const res = await call(customers.POST, "POST", "/customers", {
    key: await admin(),
    body: { email: `notified-${emails}-${Date.now()}@example.com`, name: "Notified" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The IDs of a destination's notifications, oldest first. */
async function notificationsOf(settingId: string): Promise<string[]> {
  const rows = await query<{ id: string }>(
    "SELECT id FROM notifications WHERE notification_setting_id = $1 ORDER BY id",
    [settingId],
  );
  return rows.map((r) => r.id);
}

/** One notification of a new customer for `settingId`. */
async function notification(settingId: string): Promise<string> {
  const before = new Set(await notificationsOf(settingId));
  await newCustomer();
  const made = (await notificationsOf(settingId)).filter((id) => !before.has(id));
  expect(made).toHaveLength(1);
  return made[0]!;
}

/** Moves a notification as the worker would. */
async function setStatus(id: string, status: string, extra = ""): Promise<void> {
  await query(`UPDATE notifications SET status = $2${extra ? `, ${extra}` : ""} WHERE id = $1`, [id, status]);
}

async function jobsFor(notificationId: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
     JOIN graphile_worker._private_tasks k ON k.id = j.task_id
     WHERE k.identifier = 'deliver_notification' AND j.payload->>'id' = $1`,
    [notificationId],
  );
  return row!.n;
}

async function deliveryJobs(): Promise<number> {
  const [row] = await query<{ n: number }>(
    "SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = 'deliver_notification'",
  );
  return row!.n;
}

// Each test starts without destinations (their notifications and logs go with them). Notifications
// are written by a trigger, which the list's cached totals do not see: forget them.
beforeEach(async () => {
  await query("DELETE FROM notification_settings");
  forgetTotals("notifications");
  forgetTotals("notification_logs");
});

describe("notifications of real changes", () => {
  it("a change makes a not_attempted notification with the envelope, and queues its delivery", async () => {
    const settingId = await destination();
    const jobs = await deliveryJobs();
    const customer = await newCustomer();
    const res = await list(`?notification_setting_id=${settingId}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const n = res.body.data[0];
    expect(Object.keys(n)).toEqual(FIELDS);
    expect(n.id).toMatch(/^ntf_[a-z0-9]{26}$/);
    expect(n).toMatchObject({
      type: "customer.created",
      status: "not_attempted",
      delivered_at: null,
      replayed_at: null,
      origin: "event",
      last_attempt_at: null,
      retry_at: null,
      times_attempted: 0,
      notification_setting_id: settingId,
    });
    expect(n.occurred_at).toMatch(TIMESTAMP);
    expect(Object.keys(n.payload)).toEqual(["event_id", "event_type", "occurred_at", "notification_id", "data"]);
    expect(n.payload).toMatchObject({
      event_type: "customer.created",
      occurred_at: n.occurred_at,
      notification_id: n.id,
    });
    expect(n.payload.data).toEqual(customer);
    const [event] = await query<{ id: string }>("SELECT id FROM events WHERE entity_id = $1", [customer.id]);
    expect(n.payload.event_id).toBe(event!.id);

    expect(await jobsFor(n.id)).toBe(1);
    expect(await deliveryJobs()).toBe(jobs + 1);
    expect((await get(n.id)).body.data).toEqual(n);
  });

  it("only active url destinations taking platform traffic and subscribed to the type get one", async () => {
    const subscribed = await destination();
    const other = await destination({ subscribed_events: ["transaction.created"] });
    const inactive = await destination({ active: false });
    const simulationOnly = await destination({ traffic_source: "simulation" });
    const all = await destination({ traffic_source: "all" });
    await newCustomer();
    expect(await notificationsOf(subscribed)).toHaveLength(1);
    expect(await notificationsOf(all)).toHaveLength(1);
    expect(await notificationsOf(other)).toHaveLength(0);
    expect(await notificationsOf(inactive)).toHaveLength(0);
    expect(await notificationsOf(simulationOnly)).toHaveLength(0);
  });

  it("leaves sensitive fields out of the payload unless the destination includes them", async () => {
    const plain = await destination({ subscribed_events: ["business.created"] });
    const sensitive = await destination({ subscribed_events: ["business.created"], include_sensitive_fields: true });
    const customer = await newCustomer();
    const res = await call(businesses.POST, "POST", `/customers/${customer.id}/businesses`, {
      key: await admin(),
      body: { name: "Acme Ltd", tax_identifier: "GB123456789", company_number: "01234567" },
      params: { customer_id: customer.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const business = res.body.data;

    const [withoutSecrets] = (await list(`?notification_setting_id=${plain}`)).body.data;
    const [withSecrets] = (await list(`?notification_setting_id=${sensitive}`)).body.data;
    expect(withoutSecrets.type).toBe("business.created");
    expect(withoutSecrets.payload.data).toEqual({ ...business, tax_identifier: null });
    expect(Object.keys(withoutSecrets.payload.data)).toEqual(Object.keys(business));
    expect(withSecrets.payload.data).toEqual(business);
    expect(withSecrets.payload.data.tax_identifier).toBe("GB123456789");
  });
});

describe("GET /notifications/{notification_id}", () => {
  it("returns the notification", async () => {
    const settingId = await destination();
    const id = await notification(settingId);
    const res = await get(id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data.id).toBe(id);
  });

  it("returns delivery times as RFC 3339", async () => {
    const id = await notification(await destination());
    await setStatus(
      id,
      "delivered",
      "times_attempted = 2, delivered_at = now(), last_attempt_at = now(), retry_at = NULL",
    );
    const n = (await get(id)).body.data;
    expect(n).toMatchObject({ status: "delivered", times_attempted: 2, retry_at: null });
    expect(n.delivered_at).toMatch(TIMESTAMP);
    expect(n.last_attempt_at).toBe(n.delivered_at);
  });

  it("is 404 for an unknown or malformed ID, and for notifications past the 90 days kept", async () => {
    for (const id of [newId("ntf"), "ntf_123", newId("ntfset")]) expectNotFound(await get(id), id);
    const settingId = await destination();
    const old = await notification(settingId);
    const recent = await notification(settingId);
    await query("UPDATE notifications SET created_at = now() - interval '91 days' WHERE id = $1", [old]);
    await query("UPDATE notifications SET created_at = now() - interval '89 days' WHERE id = $1", [recent]);
    expectNotFound(await get(old), old);
    expect((await get(recent)).status).toBe(200);
    expect(ids(await list(`?notification_setting_id=${settingId}`))).toEqual([recent]);
  });
});

describe("GET /notifications", () => {
  it("lists newest first with the envelope and pagination meta", async () => {
    const settingId = await destination();
    const a = await notification(settingId);
    const b = await notification(settingId);
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(ids(res)).toEqual([b, a]);
    expect(res.body.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 2 });
    expect(res.body.meta.pagination.next).toContain(`after=${a}`);
  });

  it("orders by id either way and refuses other order_by fields", async () => {
    const settingId = await destination();
    const made = [await notification(settingId), await notification(settingId), await notification(settingId)];
    expect(ids(await list("?order_by=id[DESC]"))).toEqual([...made].reverse());
    expect(ids(await list("?order_by=id[ASC]"))).toEqual(made);
    for (const order of ["occurred_at[ASC]", "id", "id[UP]"]) {
      const res = await list(`?order_by=${order}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["order_by"]);
    }
  });

  it("pages with per_page and after, following meta.pagination.next", async () => {
    const settingId = await destination();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await notification(settingId));
    const first = await list("?per_page=2");
    expect(first.body.meta.pagination).toMatchObject({ per_page: 2, has_more: true, estimated_total: 5 });
    const walked = await walkPages(
      async () => first,
      (res) => follow(res),
    );
    expect(walked).toEqual({ ids: [...made].reverse(), pages: 3 });
    expect(ids(await list(`?after=${made[2]}`))).toEqual([made[1], made[0]]);
    expect(ids(await list(`?order_by=id[ASC]&after=${made[2]}`))).toEqual([made[3], made[4]]);
    expect((await list("?per_page=201")).body.meta.pagination.per_page).toBe(200);
    expectError(await list("?per_page=0"), 400, "invalid_field");
  });

  it("filters by notification_setting_id", async () => {
    const first = await destination();
    const second = await destination();
    const third = await destination();
    await newCustomer();
    const [a] = await notificationsOf(first);
    const [b] = await notificationsOf(second);
    const [c] = await notificationsOf(third);
    expect(ids(await list(`?notification_setting_id=${first}`))).toEqual([a]);
    expect(ids(await list(`?notification_setting_id=${second},${third}`))).toEqual([c, b]);
    expect(ids(await list(`?notification_setting_id=${newId("ntfset")}`))).toEqual([]);
    for (const value of ["ntfset_bad", newId("ntf"), ""]) {
      const res = await list(`?notification_setting_id=${value}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(/^notification_setting_id/);
    }
  });

  it("filters by status", async () => {
    const settingId = await destination();
    const waiting = await notification(settingId);
    const retrying = await notification(settingId);
    const delivered = await notification(settingId);
    const failed = await notification(settingId);
    await setStatus(retrying, "needs_retry", "times_attempted = 1, retry_at = now() + interval '1 minute'");
    await setStatus(delivered, "delivered", "times_attempted = 1, delivered_at = now()");
    await setStatus(failed, "failed", "times_attempted = 4");
    expect(ids(await list("?status=not_attempted"))).toEqual([waiting]);
    expect(ids(await list("?status=needs_retry"))).toEqual([retrying]);
    expect(ids(await list("?status=delivered,failed"))).toEqual([failed, delivered]);
    expect(ids(await list("?status=not_attempted,needs_retry,delivered,failed"))).toHaveLength(4);
    for (const value of ["sent", "DELIVERED", "delivered,bogus"]) {
      const res = await list(`?status=${value}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(/^status/);
    }
  });

  it("searches the ID exactly and the type in part, without regard to case", async () => {
    const settingId = await destination({ subscribed_events: ["customer.created", "business.created"] });
    const customerNotification = await notification(settingId);
    const customer = (await get(customerNotification)).body.data.payload.data;
    await call(businesses.POST, "POST", `/customers/${customer.id}/businesses`, {
      key: await admin(),
      body: { name: "Searchable Ltd" },
      params: { customer_id: customer.id },
    });
    const [businessNotification] = (await notificationsOf(settingId)).filter((id) => id !== customerNotification);

    expect(ids(await list(`?search=${customerNotification}`))).toEqual([customerNotification]);
    expect(ids(await list("?search=CUSTOMER.CREA"))).toEqual([customerNotification]);
    expect(ids(await list("?search=business"))).toEqual([businessNotification]);
    expect(ids(await list("?search=.created"))).toEqual([businessNotification, customerNotification]);
    // Part of an ID does not match, nor do LIKE's wildcards.
    expect(ids(await list(`?search=${customerNotification.slice(0, 12)}`))).toEqual([]);
    expect(ids(await list("?search=%25"))).toEqual([]);
    expect(ids(await list("?search=customer_created"))).toEqual([]);
    expect((await list(`?search=${"x".repeat(100)}`)).status).toBe(200);
    for (const [param, field] of [
      ["search=a%00b", "search"],
      ["after=%00", "after"],
      ["filter=%00", "filter"],
    ]) {
      const refused = await list(`?${param}`);
      expectError(refused, 400, "invalid_field");
      expect(errorFields(refused)).toEqual([field]);
    }
    const res = await list(`?search=${"x".repeat(101)}`);
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["search"]);
  });

  it("filters by a customer, transaction or subscription ID named in the payload", async () => {
    const settingId = await destination({ subscribed_events: ["customer.created", "business.created"] });
    const first = await notification(settingId);
    const second = await notification(settingId);
    const customer = (await get(first)).body.data.payload.data;
    await call(businesses.POST, "POST", `/customers/${customer.id}/businesses`, {
      key: await admin(),
      body: { name: "Filtered Ltd" },
      params: { customer_id: customer.id },
    });
    const [business] = (await notificationsOf(settingId)).filter((id) => id !== first && id !== second);
    // The customer's own notification and the business's, whose payload names the customer.
    expect(ids(await list(`?filter=${customer.id}`))).toEqual([business, first]);
    expect(ids(await list(`?filter=${newId("txn")}`))).toEqual([]);
    expect(ids(await list(`?filter=${newId("sub")}`))).toEqual([]);
    for (const value of [newId("biz"), newId("pro"), "ctm_short", "anything"]) {
      const res = await list(`?filter=${value}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["filter"]);
    }
  });

  it("filters on occurred_at with from (inclusive) and to (exclusive)", async () => {
    const settingId = await destination();
    const made = [await notification(settingId), await notification(settingId), await notification(settingId)];
    const times = ["2030-01-01T00:00:00Z", "2030-01-02T00:00:00Z", "2030-01-03T00:00:00.5Z"];
    for (let i = 0; i < 3; i++) {
      await query("UPDATE notifications SET occurred_at = $2 WHERE id = $1", [made[i], times[i]]);
    }
    const [a, b, c] = made;
    expect(ids(await list("?from=2030-01-02T00:00:00Z"))).toEqual([c, b]);
    expect(ids(await list("?to=2030-01-02T00:00:00Z"))).toEqual([a]);
    expect(ids(await list("?from=2030-01-01T00:00:00Z&to=2030-01-03T00:00:00Z"))).toEqual([b, a]);
    expect(ids(await list("?from=2030-01-03T00:00:00.500001Z"))).toEqual([]);
    // Offsets and fractions: 01:00+01:00 is midnight UTC.
    expect(ids(await list("?from=2030-01-02T01:00:00%2B01:00&to=2030-01-02T00:00:00.000001Z"))).toEqual([b]);
    for (const [name, value] of [
      ["from", "2030-01-01"],
      ["from", "yesterday"],
      ["to", "2030-01-01T00:00:00"],
      ["to", "2030-02-30T00:00:00Z"],
      ["from", "0000-01-01T00:00:00Z"],
      ["to", "2030-13-01T00:00:00Z"],
    ]) {
      const res = await list(`?${name}=${value}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual([name]);
    }
  });

  it("combines filters", async () => {
    const first = await destination();
    const second = await destination();
    await newCustomer();
    const [a] = await notificationsOf(first);
    const [b] = await notificationsOf(second);
    await setStatus(a!, "delivered");
    expect(ids(await list(`?notification_setting_id=${first},${second}&status=delivered`))).toEqual([a]);
    expect(ids(await list(`?notification_setting_id=${second}&status=delivered`))).toEqual([]);
    expect(ids(await list(`?notification_setting_id=${second}&search=customer.created`))).toEqual([b]);
  });
});

describe("GET /notifications/{notification_id}/logs", () => {
  async function log(notificationId: string, attemptedAt: string, fields: Record<string, unknown> = {}) {
    const id = newId("ntflog");
    await query(
      `INSERT INTO notification_logs
         (id, notification_id, response_code, response_content_type, response_body, duration_ms, error, attempted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        notificationId,
        ...Object.values({
          response_code: 500,
          response_content_type: "text/plain",
          response_body: "Internal Server Error",
          duration_ms: 120,
          error: "HTTP 500",
          ...fields,
        }),
        attemptedAt,
      ],
    );
    return id;
  }

  it("lists the attempts newest first, with the fields in order", async () => {
    const settingId = await destination();
    const id = await notification(settingId);
    const other = await notification(settingId);
    const first = await log(id, "2030-01-01T00:00:00Z");
    const second = await log(id, "2030-01-01T00:00:30.123456Z", {
      response_code: null,
      response_content_type: null,
      response_body: null,
      duration_ms: 5000,
      error: "timed out after 5000 ms",
    });
    const third = await log(id, "2030-01-01T00:02:30Z", {
      response_code: 200,
      response_content_type: "application/json",
      response_body: '{"ok":true}',
      duration_ms: 35,
      error: null,
    });
    await log(other, "2030-01-01T00:00:00Z");

    const res = await listLogs(id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(ids(res)).toEqual([third, second, first]);
    expect(Object.keys(res.body.data[0])).toEqual(LOG_FIELDS);
    expect(res.body.data[0]).toEqual({
      id: third,
      response_code: 200,
      response_content_type: "application/json",
      response_body: '{"ok":true}',
      attempted_at: "2030-01-01T00:02:30.000000Z",
      duration_ms: 35,
      error: null,
    });
    expect(res.body.data[1]).toEqual({
      id: second,
      response_code: null,
      response_content_type: null,
      response_body: null,
      attempted_at: "2030-01-01T00:00:30.123456Z",
      duration_ms: 5000,
      error: "timed out after 5000 ms",
    });
    expect(res.body.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 3 });
  });

  it("pages with per_page and after", async () => {
    const id = await notification(await destination());
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(await log(id, `2030-01-01T00:0${i}:00Z`));
    const first = await listLogs(id, "?per_page=2");
    expect(first.body.meta.pagination).toMatchObject({ per_page: 2, has_more: true, estimated_total: 5 });
    const walked = await walkPages(
      async () => first,
      (res) => follow(res, logs.GET, { notification_id: id }),
    );
    expect(walked).toEqual({ ids: [...made].reverse(), pages: 3 });
    expect(ids(await listLogs(id, `?after=${made[2]}`))).toEqual([made[1], made[0]]);
    const res = await listLogs(id, "?per_page=0");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["per_page"]);
  });

  it("is an empty list for a notification not attempted yet", async () => {
    const id = await notification(await destination());
    const res = await listLogs(id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it("is 404 for an unknown, malformed or expired notification", async () => {
    for (const id of [newId("ntf"), "ntf_x"]) expectNotFound(await listLogs(id), id);
    const id = await notification(await destination());
    await log(id, "2030-01-01T00:00:00Z");
    await query("UPDATE notifications SET created_at = now() - interval '91 days' WHERE id = $1", [id]);
    expectNotFound(await listLogs(id), id);
  });
});

describe("POST /notifications/{notification_id}/replay", () => {
  it("replays a delivered notification as a new one, queued, and marks the original replayed: 202", async () => {
    const settingId = await destination();
    const id = await notification(settingId);
    await setStatus(id, "delivered", "times_attempted = 1, delivered_at = now(), last_attempt_at = now()");
    const original = (await get(id)).body.data;

    const res = await replayOf(id);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.data)).toEqual(["notification_id"]);
    const replayId = res.body.data.notification_id;
    expect(replayId).toMatch(/^ntf_[a-z0-9]{26}$/);
    expect(replayId).not.toBe(id);

    const copy = (await get(replayId)).body.data;
    expect(copy).toMatchObject({
      type: original.type,
      status: "not_attempted",
      origin: "replay",
      occurred_at: original.occurred_at,
      times_attempted: 0,
      delivered_at: null,
      replayed_at: null,
      notification_setting_id: settingId,
    });
    expect(copy.payload).toEqual({ ...original.payload, notification_id: replayId });
    expect(await jobsFor(replayId)).toBe(1);

    const after = (await get(id)).body.data;
    expect(after.replayed_at).toMatch(TIMESTAMP);
    expect(after).toEqual({ ...original, replayed_at: after.replayed_at });
    expect(ids(await list(`?notification_setting_id=${settingId}`))).toEqual([replayId, id]);
    // A notification can be replayed again.
    expect((await replayOf(id)).status).toBe(202);
  });

  it("replays a failed notification", async () => {
    const id = await notification(await destination());
    await setStatus(id, "failed", "times_attempted = 4");
    expect((await replayOf(id)).status).toBe(202);
  });

  it("refuses notifications still being delivered: notification_cannot_replay", async () => {
    const id = await notification(await destination());
    const error = expectError(await replayOf(id), 400, "notification_cannot_replay");
    expect(error.detail).toContain(id);
    await setStatus(id, "needs_retry", "times_attempted = 1");
    expectError(await replayOf(id), 400, "notification_cannot_replay");
    const row = (await get(id)).body.data;
    expect(row.replayed_at).toBeNull();
    expect(await notificationsOf(row.notification_setting_id)).toEqual([id]);
  });

  it("refuses replays of replays: notification_replay_invalid_origin_type", async () => {
    const id = await notification(await destination());
    await setStatus(id, "delivered");
    const replayId = (await replayOf(id)).body.data.notification_id;
    expectError(await replayOf(replayId), 400, "notification_replay_invalid_origin_type");
    await setStatus(replayId, "delivered");
    const error = expectError(await replayOf(replayId), 400, "notification_replay_invalid_origin_type");
    expect(error.detail).toContain(replayId);
    expect((await get(replayId)).body.data.replayed_at).toBeNull();
  });

  it("is 404 for an unknown, malformed or expired notification", async () => {
    for (const id of [newId("ntf"), "ntf_x"]) expectNotFound(await replayOf(id), id);
    const id = await notification(await destination());
    await setStatus(id, "delivered");
    await query("UPDATE notifications SET created_at = now() - interval '91 days' WHERE id = $1", [id]);
    expectNotFound(await replayOf(id), id);
  });
});

describe("POST /notifications/{id}/retry (ours)", () => {
  it("queues the next attempt of a notification waiting for its retry now; the later job is then stale", async () => {
    const id = await notification(await destination());
    await setStatus(id, "needs_retry", "times_attempted = 1, retry_at = now() + interval '1 hour'");
    const jobsBefore = await jobsFor(id);
    const res = await retryNow(id);
    expect(res.status).toBe(202);
    expect(Object.keys(res.body.data).sort()).toEqual([...FIELDS].sort());
    expect(res.body.data).toMatchObject({ id, status: "needs_retry", times_attempted: 1 });
    expect(new Date(res.body.data.retry_at).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await jobsFor(id)).toBe(jobsBefore + 1);
    const [queued] = await query<{ attempt: number; due: boolean }>(
      `SELECT (j.payload->>'attempt')::int AS attempt, j.run_at <= now() + interval '1 second' AS due
         FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id
        WHERE k.identifier = 'deliver_notification' AND j.payload->>'id' = $1 ORDER BY j.id DESC LIMIT 1`,
      [id],
    );
    expect(queued).toEqual({ attempt: 2, due: true });
  });

  it("refuses a notification not waiting for a retry: notification_cannot_retry, nothing queued", async () => {
    const id = await notification(await destination());
    const jobs = await jobsFor(id);
    for (const status of ["not_attempted", "delivered", "failed"]) {
      await setStatus(id, status);
      const error = expectError(await retryNow(id), 400, "notification_cannot_retry");
      expect(error.detail).toContain(status);
    }
    expect(await jobsFor(id)).toBe(jobs);
  });

  it("is 404 for an unknown, malformed or expired notification; needs notification.write", async () => {
    for (const id of [newId("ntf"), "ntf_x"]) expectNotFound(await retryNow(id), id);
    const id = await notification(await destination());
    await setStatus(id, "needs_retry", "times_attempted = 1");
    const WITHOUT = permissionsWithout("notification.");
    await expectForbidden((key) => retryNow(id, key), [WITHOUT, ["notification.read"]], "notification.write");
    expectError(await retryNow(id, null), 401, "invalid_token");
    await query("UPDATE notifications SET created_at = now() - interval '91 days' WHERE id = $1", [id]);
    expectNotFound(await retryNow(id), id);
  });
});

describe("permissions", () => {
  const WITHOUT = permissionsWithout("notification.");

  it("the reads need notification.read; write implies read", async () => {
    const id = await notification(await destination());
    for (const request of [
      (key: string) => list("", key),
      (key: string) => get(id, key),
      (key: string) => listLogs(id, "", key),
    ]) {
      await expectPermission(request, {
        permission: "notification.read",
        denied: [WITHOUT, ["notification_setting.write"]],
        // The notification carries a customer: its reader needs customer.read too (below).
        allowed: [
          ["notification.read", "customer.read"],
          ["notification.write", "customer.read"],
        ],
      });
    }
  });

  it("replay needs notification.write", async () => {
    const id = await notification(await destination());
    await setStatus(id, "delivered");
    await expectForbidden((key) => replayOf(id, key), [WITHOUT, ["notification.read"]], "notification.write");
    expect((await get(id)).body.data.replayed_at).toBeNull();
    expect((await replayOf(id, await testKey(["notification.write"]))).status).toBe(202);
  });

  it("refuses requests without a key (401) and checks the permission before the lookup (403, not 404)", async () => {
    const id = newId("ntf");
    expectError(await list("", null), 401, "invalid_token");
    expectError(await get(id, null), 401, "invalid_token");
    expectError(await listLogs(id, "", null), 401, "invalid_token");
    expectError(await replayOf(id, null), 401, "invalid_token");
    expectError(await get(id, await testKey(["product.read"])), 403, "forbidden");
    expectError(await replayOf(id, await testKey(["notification.read"])), 403, "forbidden");
  });
});

describe("a notification is shown only to callers that may read its event's entity", () => {
  /** One customer.created and one api_key.created notification for a destination of both. */
  async function both(): Promise<{ customerNtf: string; apiKeyNtf: string; keyName: string }> {
    const settingId = await destination({ subscribed_events: ["customer.created", "api_key.created"] });
    const customerNtf = await notification(settingId);
    const keyName = `secret integration ${Date.now()}`;
    await call(apiKeys.POST, "POST", "/api-keys", {
      key: await admin(),
      body: { name: keyName, permissions: ["customer.read"] },
    });
    const [apiKeyNtf] = (
      await query<{ id: string }>("SELECT id FROM notifications WHERE notification_setting_id = $1 AND type = $2", [
        settingId,
        "api_key.created",
      ])
    ).map((r) => r.id);
    expect(apiKeyNtf).toBeDefined();
    return { customerNtf, apiKeyNtf: apiKeyNtf!, keyName };
  }

  it("a viewer lists the customer notification, not the API key one, and gets 403 asking for it", async () => {
    const { customerNtf, apiKeyNtf, keyName } = await both();
    const viewer = await staffSession("viewer");
    const listed = await call(many.GET, "GET", "/notifications", { headers: viewer.headers });
    expect(listed.status).toBe(200);
    expect(ids(listed)).toEqual([customerNtf]);
    expect(JSON.stringify(listed.body)).not.toContain(keyName);
    expect(ids(await call(many.GET, "GET", "/notifications?search=api_key", { headers: viewer.headers }))).toEqual([]);

    const params = { notification_id: apiKeyNtf };
    const one_ = await call(one.GET, "GET", `/notifications/${apiKeyNtf}`, { headers: viewer.headers, params });
    expect(expectError(one_, 403, "forbidden").detail).toContain("api_key.read");
    const logs_ = await call(logs.GET, "GET", `/notifications/${apiKeyNtf}/logs`, { headers: viewer.headers, params });
    expect(expectError(logs_, 403, "forbidden").detail).toContain("api_key.read");
    const own = await call(one.GET, "GET", `/notifications/${customerNtf}`, {
      headers: viewer.headers,
      params: { notification_id: customerNtf },
    });
    expect(own.status).toBe(200);
  });

  it("a key sees the notifications of the entities it may read, and an unknown ID is still 404", async () => {
    const { customerNtf, apiKeyNtf } = await both();
    const onlyNotifications = await testKey(["notification.read"]);
    expect(ids(await list("", onlyNotifications))).toEqual([]);
    expectError(await get(customerNtf, onlyNotifications), 403, "forbidden");
    expectNotFound(await get(newId("ntf"), onlyNotifications));

    // (Each test key made here is an api_key.created event of its own, notified too.)
    const withKeys = await testKey(["notification.read", "api_key.read"]);
    const keyNotifications = await list("", withKeys);
    expect(ids(keyNotifications)).toContain(apiKeyNtf);
    expect(ids(keyNotifications)).not.toContain(customerNtf);
    expect((keyNotifications.body.data as { type: string }[]).every((n) => n.type === "api_key.created")).toBe(true);
    expect((await get(apiKeyNtf, withKeys)).status).toBe(200);
    expect((await listLogs(apiKeyNtf, "", withKeys)).status).toBe(200);

    expect(ids(await list("", await admin()))).toEqual(expect.arrayContaining([customerNtf, apiKeyNtf]));
  });
});

describe("methods", () => {
  it("answers 405 for methods the paths do not have", async () => {
    const id = newId("ntf");
    const params = { notification_id: id };
    await expectMethodsNotAllowed(many, ["POST", "PUT", "PATCH", "DELETE"], "/notifications");
    await expectMethodsNotAllowed(one, ["POST", "PUT", "PATCH", "DELETE"], `/notifications/${id}`, params);
    await expectMethodsNotAllowed(logs, ["POST", "PUT", "PATCH", "DELETE"], `/notifications/${id}/logs`, params);
    await expectMethodsNotAllowed(replay, ["GET", "PUT", "PATCH", "DELETE"], `/notifications/${id}/replay`, params);
    await expectMethodsNotAllowed(retry, ["GET", "PUT", "PATCH", "DELETE"], `/notifications/${id}/retry`, params);
  });
});
