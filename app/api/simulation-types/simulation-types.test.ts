/** GET /simulation-types: the webhook simulator's catalogue of single events and scenarios. */
import { describe, expect, it } from "vitest";
import { call, expectError, testKey } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { EVENT_TYPES } from "@/lib/events/catalogue";
import * as simulationTypes from "./route";

interface SimulationType {
  name: string;
  label: string;
  description: string;
  group: string;
  type: string;
  events: string[];
}

const SCENARIOS = [
  "subscription_creation",
  "subscription_renewal",
  "subscription_pause",
  "subscription_resume",
  "subscription_cancellation",
];

async function list(key?: string | null) {
  return call(simulationTypes.GET, "GET", "/simulation-types", { key: key === undefined ? await admin() : key });
}

async function types(): Promise<SimulationType[]> {
  const res = await list();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

describe("GET /simulation-types", () => {
  it("returns the whole catalogue in the envelope, without pagination", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(Object.keys(res.body.meta)).toEqual(["request_id"]);
    expect(res.body.data).toHaveLength(EVENT_TYPES.length + SCENARIOS.length);
  });

  it("gives every entry name, label, description, group, type and events, in that order", async () => {
    for (const t of await types()) {
      expect(Object.keys(t)).toEqual(["name", "label", "description", "group", "type", "events"]);
      for (const field of ["name", "label", "description", "group"] as const) {
        expect(typeof t[field]).toBe("string");
        expect(t[field].length).toBeGreaterThan(0);
      }
      expect(["single_event", "scenario"]).toContain(t.type);
      expect(t.events.length).toBeGreaterThan(0);
    }
  });

  it("has one single_event entry per event type of the catalogue, with that event only", async () => {
    const singles = (await types()).filter((t) => t.type === "single_event");
    expect(singles.map((t) => t.name)).toEqual(EVENT_TYPES.map((t) => t.name));
    for (const t of singles) {
      const eventType = EVENT_TYPES.find((e) => e.name === t.name)!;
      expect(t).toEqual({
        name: eventType.name,
        label: eventType.name,
        description: eventType.description,
        group: eventType.group,
        type: "single_event",
        events: [eventType.name],
      });
    }
  });

  it("has the five scenarios, each with the event types it sends in order of first occurrence", async () => {
    const scenarios = (await types()).filter((t) => t.type === "scenario");
    expect(scenarios.map((t) => t.name)).toEqual(SCENARIOS);
    const known = new Set(EVENT_TYPES.map((t) => t.name));
    for (const s of scenarios) {
      expect(s.group).toBe("Subscription");
      expect(new Set(s.events).size).toBe(s.events.length);
      for (const event of s.events) expect(known.has(event), event).toBe(true);
    }
    const byName = Object.fromEntries(scenarios.map((s) => [s.name, s.events]));
    expect(byName.subscription_creation!.slice(0, 5)).toEqual([
      "transaction.created",
      "customer.created",
      "address.created",
      "transaction.updated",
      "transaction.ready",
    ]);
    expect(byName.subscription_creation).toEqual(
      expect.arrayContaining(["subscription.created", "transaction.completed", "business.created"]),
    );
    expect(byName.subscription_renewal!.slice(0, 3)).toEqual([
      "subscription.updated",
      "transaction.created",
      "transaction.billed",
    ]);
    expect(byName.subscription_renewal).toEqual(
      expect.arrayContaining(["transaction.payment_failed", "subscription.past_due", "subscription.canceled"]),
    );
    expect(byName.subscription_pause).toEqual([
      "subscription.updated",
      "subscription.paused",
      "transaction.updated",
      "transaction.canceled",
    ]);
    expect(byName.subscription_cancellation).toEqual([
      "subscription.updated",
      "subscription.canceled",
      "transaction.updated",
      "transaction.canceled",
    ]);
    expect(byName.subscription_resume!.slice(0, 2)).toEqual(["subscription.updated", "subscription.resumed"]);
  });

  it("needs notification_simulation.read (write implies read)", async () => {
    await expectPermission((key) => list(key), {
      permission: "notification_simulation.read",
      denied: [permissionsWithout("notification_simulation."), ["notification.read"]],
      allowed: [["notification_simulation.read"], ["notification_simulation.write"]],
    });
  });

  it("refuses a request without a key or with a bad one (401)", async () => {
    expectError(await list(null), 401, "invalid_token");
    expectError(await list("svc_apikey_sdbx_nope"), 401, "invalid_token");
    expect((await list(await testKey(["notification_simulation.read"]))).status).toBe(200);
  });

  it("answers 405 to other methods", async () => {
    await expectMethodsNotAllowed(simulationTypes, ["POST", "PUT", "PATCH", "DELETE"], "/simulation-types");
  });
});
