/**
 * GET /events through the real route handler on a real database: the events real changes wrote.
 */
import { describe, expect, it } from "vitest";
import * as apiKeys from "@/app/api/api-keys/route";
import * as customerItem from "@/app/api/customers/[customer_id]/route";
import * as customers from "@/app/api/customers/route";
import { isPermission } from "@/lib/auth/permissions";
import { query } from "@/lib/db/sql";
import { type ApiResult, call, errorFields, expectError, testKey } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin, type Key, walkPages } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { EVENT_TYPES, eventReadPermission } from "@/lib/events/catalogue";
import * as collection from "./route";

const FIELDS = ["event_id", "event_type", "occurred_at", "data"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const CUSTOMER_EVENTS = "event_type=customer.created,customer.updated";

async function list(queryString = "", key?: Key): Promise<ApiResult> {
  return call(collection.GET, "GET", `/events${queryString}`, { key: key === undefined ? await admin() : key });
}

async function follow(res: ApiResult): Promise<ApiResult> {
  const url = new URL(res.body.meta.pagination.next);
  return call(collection.GET, "GET", `${url.pathname.replace(/^\/api/, "")}${url.search}`, { key: await admin() });
}

function eventIds(res: ApiResult): string[] {
  return (res.body.data as { event_id: string }[]).map((e) => e.event_id);
}

let emails = 0;

async function newCustomer(): Promise<Record<string, any>> {
  emails += 1;
  const res = await call(customers.POST, "POST", "/customers", {
    key: await admin(),
    body: { email: `evented-${emails}-${Date.now()}@example.com` },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function renameCustomer(id: string, name: string): Promise<Record<string, any>> {
  const res = await call(customerItem.PATCH, "PATCH", `/customers/${id}`, {
    key: await admin(),
    body: { name },
    params: { customer_id: id },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The event IDs of an entity, oldest first. */
async function eventsOf(entityId: string): Promise<string[]> {
  const rows = await query<{ id: string }>("SELECT id FROM events WHERE entity_id = $1 ORDER BY id", [entityId]);
  return rows.map((r) => r.id);
}

describe("GET /events", () => {
  it("lists events newest first: fields in order, the entity as data, as the change returned it", async () => {
    const created = await newCustomer();
    const renamed = await renameCustomer(created.id, "Renamed");
    const [createdEvent, updatedEvent] = await eventsOf(created.id);
    const res = await list(`?${CUSTOMER_EVENTS}&per_page=2`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(eventIds(res)).toEqual([updatedEvent, createdEvent]);
    const [updated, first] = res.body.data;
    expect(Object.keys(updated)).toEqual(FIELDS);
    expect(updated).toMatchObject({ event_id: updatedEvent, event_type: "customer.updated", data: renamed });
    expect(first).toMatchObject({ event_id: createdEvent, event_type: "customer.created", data: created });
    expect(Object.keys(first.data)).toEqual(Object.keys(created));
    expect(updated.event_id).toMatch(/^evt_[a-z0-9]{26}$/);
    expect(updated.occurred_at).toMatch(TIMESTAMP);
    expect(res.body.meta.pagination.per_page).toBe(2);
    expect(res.body.meta.pagination.next).toContain(`after=${createdEvent}`);
  });

  it("filters by event_type", async () => {
    const c = await newCustomer();
    await renameCustomer(c.id, "Typed");
    const [createdEvent, updatedEvent] = await eventsOf(c.id);
    const updates = await list("?event_type=customer.updated");
    expect(updates.body.data.every((e: { event_type: string }) => e.event_type === "customer.updated")).toBe(true);
    expect(eventIds(updates)).toContain(updatedEvent);
    expect(eventIds(updates)).not.toContain(createdEvent);
    const both = eventIds(await list(`?${CUSTOMER_EVENTS}&per_page=200`));
    expect(both).toEqual(expect.arrayContaining([createdEvent, updatedEvent]));
    expect(eventIds(await list("?event_type=payout.paid"))).toEqual([]);
    for (const value of ["customer.deleted", "customer", "customer.created,nope", ""]) {
      const res = await list(`?event_type=${value}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(/^event_type/);
    }
  });

  it("orders by id either way and refuses other order_by fields", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const [ea] = await eventsOf(a.id);
    const [eb] = await eventsOf(b.id);
    const desc = eventIds(await list(`?event_type=customer.created&per_page=200`));
    expect(desc.indexOf(eb!)).toBeLessThan(desc.indexOf(ea!));
    expect(eventIds(await list(`?event_type=customer.created&order_by=id[DESC]&per_page=200`))).toEqual(desc);
    const asc = eventIds(await list(`?event_type=customer.created&order_by=id[ASC]&per_page=200`));
    expect(asc).toEqual([...desc].reverse());
    for (const order of ["occurred_at[DESC]", "event_type[ASC]"]) {
      const res = await list(`?order_by=${order}`);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["order_by"]);
    }
  });

  it("pages with per_page and after, following meta.pagination.next", async () => {
    for (let i = 0; i < 4; i++) await newCustomer();
    const all = eventIds(await list(`?${CUSTOMER_EVENTS}&per_page=200`));
    expect(all.length).toBeGreaterThanOrEqual(4);
    const walked = await walkPages(
      async () => {
        const res = await list(`?${CUSTOMER_EVENTS}&per_page=3`);
        return {
          ...res,
          body: { ...res.body, data: res.body.data.map((e: { event_id: string }) => ({ id: e.event_id })) },
        };
      },
      async (res) => {
        const next = await follow(res);
        return {
          ...next,
          body: { ...next.body, data: next.body.data.map((e: { event_id: string }) => ({ id: e.event_id })) },
        };
      },
    );
    expect(walked.ids).toEqual(all);
    expect(walked.pages).toBe(Math.ceil(all.length / 3));
    expect(eventIds(await list(`?${CUSTOMER_EVENTS}&after=${all[1]}&per_page=200`))).toEqual(all.slice(2));
    expect((await list("?per_page=1000")).body.meta.pagination.per_page).toBe(200);
    const res = await list("?per_page=0");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["per_page"]);
  });

  it("filters by entity_id (an extension): the events of those entities, newest first", async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    await renameCustomer(a.id, "Renamed A");
    await renameCustomer(b.id, "Renamed B");
    const onlyA = await list(`?entity_id=${a.id}`);
    expect(onlyA.status, JSON.stringify(onlyA.body)).toBe(200);
    expect(onlyA.body.data.map((e: { event_type: string }) => e.event_type)).toEqual([
      "customer.updated",
      "customer.created",
    ]);
    expect(onlyA.body.data.every((e: { data: { id: string } }) => e.data.id === a.id)).toBe(true);
    const both = await list(`?entity_id=${a.id},${b.id}&event_type=customer.updated`);
    expect(both.body.data.map((e: { data: { id: string } }) => e.data.id)).toEqual([b.id, a.id]);
    expect((await list("?entity_id=ctm_00000000000000000000000000")).body.data).toEqual([]);
    const bad = await list("?entity_id=nope");
    expectError(bad, 400, "invalid_field");
    expect(errorFields(bad)).toEqual(["entity_id[0]"]);
  });

  it("needs event.read", async () => {
    await expectPermission((key) => list("", key), {
      permission: "event.read",
      denied: [permissionsWithout("event."), ["notification.write", "customer.write"]],
    });
  });

  it("refuses a request without a key", async () => {
    expectError(await list("", null), 401, "invalid_token");
    expectError(await list("", "svc_apikey_sdbx_nope"), 401, "invalid_token");
    expect((await list("", await testKey(["event.read"]))).status).toBe(200);
  });

  it("answers 405 for methods the path does not have", async () => {
    await expectMethodsNotAllowed(collection, ["POST", "PUT", "PATCH", "DELETE"], "/events");
  });
});

describe("events are shown only to callers that may read their entity", () => {
  async function newApiKey(name: string): Promise<string> {
    const res = await call(apiKeys.POST, "POST", "/api-keys", {
      key: await admin(),
      body: { name, permissions: ["customer.read", "transaction.write"] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id;
  }

  function types(res: ApiResult): string[] {
    return [...new Set((res.body.data as { event_type: string }[]).map((e) => e.event_type))];
  }

  it("a viewer gets no api_key events: left out of the list, 403 naming api_key.read when asked for", async () => {
    const keyName = `Payments backend ${Date.now()}`;
    const keyId = await newApiKey(keyName);
    const customer = await newCustomer();
    const viewer = await staffSession("viewer");
    const asViewer = (q: string) => call(collection.GET, "GET", `/events${q}`, { headers: viewer.headers });

    const all = await asViewer("?per_page=200");
    expect(all.status).toBe(200);
    expect(types(all)).toContain("customer.created");
    expect(types(all).some((t) => t.startsWith("api_key."))).toBe(false);
    expect(JSON.stringify(all.body)).not.toContain(keyName);
    expect(eventIds(await asViewer(`?entity_id=${keyId}`))).toEqual([]);
    expect((await asViewer(`?entity_id=${customer.id}`)).body.data).toHaveLength(1);

    const named = await asViewer("?event_type=api_key.created");
    expect(expectError(named, 403, "forbidden").detail).toContain("api_key.read");
    const mixed = await asViewer("?event_type=customer.created,api_key.revoked");
    expect(expectError(mixed, 403, "forbidden").detail).toContain("api_key.read");

    // A developer may read API keys, and so their events.
    const developer = await staffSession("developer");
    const asDeveloper = await call(collection.GET, "GET", "/events?event_type=api_key.created", {
      headers: developer.headers,
    });
    expect(asDeveloper.status).toBe(200);
    expect(JSON.stringify(asDeveloper.body)).toContain(keyName);
  });

  it("a key with event.read alone sees no event data; each entity's read permission opens its events", async () => {
    await newApiKey("visible to api_key.read");
    const customer = await newCustomer();
    const eventOnly = await testKey(["event.read"]);
    const none = await list("?per_page=200", eventOnly);
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.pagination.has_more).toBe(false);
    const refused = expectError(await list(`?${CUSTOMER_EVENTS}`, eventOnly), 403, "forbidden");
    expect(refused.detail).toContain("customer.read");

    const customers_ = await list("?per_page=200", await testKey(["event.read", "customer.read"]));
    expect(types(customers_).length).toBeGreaterThan(0);
    expect(types(customers_).every((t) => t.startsWith("customer."))).toBe(true);
    expect((customers_.body.data as { data: { id: string } }[]).map((e) => e.data.id)).toContain(customer.id);

    // Write implies read, here too.
    const writer = await list(`?${CUSTOMER_EVENTS}`, await testKey(["event.read", "customer.write"]));
    expect(writer.status).toBe(200);

    const keysOnly = await list("?per_page=200", await testKey(["event.read", "api_key.read"]));
    expect(types(keysOnly)).toEqual(["api_key.created"]);
  });

  it("maps every event type of the catalogue to a read permission that exists", () => {
    for (const type of EVENT_TYPES) expect(isPermission(eventReadPermission(type.name)), type.name).toBe(true);
    expect(eventReadPermission("api_key.created")).toBe("api_key.read");
    expect(eventReadPermission("discount_group.updated")).toBe("discount_group.read");
    expect(eventReadPermission("payment_method.saved")).toBe("customer.read");
  });
});
