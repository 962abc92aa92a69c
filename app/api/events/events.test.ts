/**
 * GET /events through the real route handler on a real database: the events real changes wrote.
 */
import { describe, expect, it } from "vitest";
import * as customerItem from "@/app/api/customers/[customer_id]/route";
import * as customers from "@/app/api/customers/route";
import { query } from "@/lib/db/sql";
import { type ApiResult, call, errorFields, expectError, testKey } from "@/lib/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/test/checks";
import { admin, type Key, walkPages } from "@/lib/test/resource";
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
    expect(desc.indexOf(eb)).toBeLessThan(desc.indexOf(ea));
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
