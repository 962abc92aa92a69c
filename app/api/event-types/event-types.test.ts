/** GET /event-types: the public catalogue of event types. */
import { describe, expect, it } from "vitest";
import { call, expectError, testKey } from "@/lib/dev/test/api";
import * as eventTypes from "./route";

const SPEC_EVENT_TYPES = [
  "transaction.billed",
  "transaction.canceled",
  "transaction.completed",
  "transaction.created",
  "transaction.payment_failed",
  "transaction.ready",
  "transaction.updated",
  "subscription.activated",
  "subscription.canceled",
  "subscription.created",
  "subscription.past_due",
  "subscription.paused",
  "subscription.resumed",
  "subscription.trialing",
  "subscription.updated",
  "adjustment.updated",
  "price.updated",
  "customer.created",
  "address.created",
];

interface EventType {
  name: string;
  description: string;
  group: string;
  available_versions: number[];
}

async function fetchTypes(): Promise<EventType[]> {
  const res = await call(eventTypes.GET, "GET", "/event-types");
  expect(res.status).toBe(200);
  return res.body.data;
}

describe("GET /event-types", () => {
  it("needs no key: 200 without Authorization, in the envelope", async () => {
    const res = await call(eventTypes.GET, "GET", "/event-types");
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(typeof res.body.meta.request_id).toBe("string");
    expect(res.headers.get("x-request-id")).toBe(res.body.meta.request_id);
  });

  it("also answers with a key that has no permissions relevant to it", async () => {
    const key = await testKey(["product.read"]);
    const res = await call(eventTypes.GET, "GET", "/event-types", { key });
    expect(res.status).toBe(200);
  });

  it("gives every entry name, description, group and available_versions, and nothing else", async () => {
    for (const t of await fetchTypes()) {
      expect(Object.keys(t).sort()).toEqual(["available_versions", "description", "group", "name"]);
      expect(t.name).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(typeof t.description).toBe("string");
      expect(t.description.length).toBeGreaterThan(0);
      expect(typeof t.group).toBe("string");
      expect(t.group.length).toBeGreaterThan(0);
      expect(Array.isArray(t.available_versions)).toBe(true);
      expect(t.available_versions.length).toBeGreaterThan(0);
      for (const v of t.available_versions) {
        expect(Number.isInteger(v)).toBe(true);
        expect(v).toBeGreaterThanOrEqual(1);
      }
      expect(t.available_versions).toContain(1);
    }
  });

  it.each(SPEC_EVENT_TYPES)("includes %s", async (name) => {
    const names = (await fetchTypes()).map((t) => t.name);
    expect(names).toContain(name);
  });

  it("puts transaction and subscription events in the Transaction and Subscription groups", async () => {
    const types = await fetchTypes();
    for (const t of types) {
      if (t.name.startsWith("transaction.")) expect(t.group).toBe("Transaction");
      if (t.name.startsWith("subscription.")) expect(t.group).toBe("Subscription");
    }
  });

  it("has unique names", async () => {
    const names = (await fetchTypes()).map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("refuses other methods with 405", async () => {
    expectError(await call(eventTypes.POST, "POST", "/event-types", { body: {} }), 405, "method_not_allowed");
    expectError(await call(eventTypes.DELETE, "DELETE", "/event-types"), 405, "method_not_allowed");
  });

  it("refuses an unknown Service-Version", async () => {
    const res = await call(eventTypes.GET, "GET", "/event-types", { headers: { "service-version": "2" } });
    expectError(res, 400, "invalid_version");
  });
});
