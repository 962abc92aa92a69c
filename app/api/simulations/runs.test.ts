/**
 * Simulation runs and their events, and sending them to a real local receiver.
 *   GET/POST /simulations/{simulation_id}/runs
 *   GET      /simulations/{simulation_id}/runs/{simulation_run_id}
 *   GET      /simulations/{simulation_id}/runs/{simulation_run_id}/events
 *   GET      /simulations/{simulation_id}/runs/{simulation_run_id}/events/{simulation_event_id}
 *   POST     /simulations/{simulation_id}/runs/{simulation_run_id}/events/{simulation_event_id}/replay
 * and executeSimulationRun, the worker's `run_simulation` task.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { type ApiResult, errorFields, expectError, testKey } from "@/lib/dev/test/api";
import { expectForbidden, expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { type Receiver, startReceiver } from "@/lib/dev/test/receiver";
import { ids, type Key, resource } from "@/lib/dev/test/resource";
import { callAt, createDestination, type Destination, updateDestination } from "@/lib/dev/test/simulation";
import { subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { EVENT_TYPES } from "@/lib/events/catalogue";
import { verifySignature } from "@/lib/events/signature";
import { newId } from "@/lib/ids";
import { createAddressBody } from "@/lib/schemas/address";
import { createBusinessBody } from "@/lib/schemas/business";
import { createCustomerBody } from "@/lib/schemas/customer";
import { createDiscountBody } from "@/lib/schemas/discount";
import { createDiscountGroupBody } from "@/lib/schemas/discount-group";
import { createPriceBody } from "@/lib/schemas/price";
import { createProductBody } from "@/lib/schemas/product";
import { createAddress, getAddress } from "@/lib/services/addresses";
import { createBusiness } from "@/lib/services/businesses";
import { createCustomer, getCustomer } from "@/lib/services/customers";
import { createDiscountGroup } from "@/lib/services/discount-groups";
import { createDiscount } from "@/lib/services/discounts";
import { createPrice, getPrice } from "@/lib/services/prices";
import { createProduct, getProduct } from "@/lib/services/products";
import { EXAMPLE_IDS } from "@/lib/simulator/examples/common";
import {
  exampleAddress,
  exampleBusiness,
  exampleCustomer,
  exampleDiscount,
  exampleDiscountGroup,
  examplePrice,
  exampleProduct,
} from "@/lib/simulator/examples/entities";
import { examplePayload } from "@/lib/simulator/examples/payloads";
import { executeSimulationRun } from "@/lib/simulator/runner";
import * as simulationItem from "./[simulation_id]/route";
import * as replayRoute from "./[simulation_id]/runs/[simulation_run_id]/events/[simulation_event_id]/replay/route";
import * as runEvent from "./[simulation_id]/runs/[simulation_run_id]/events/[simulation_event_id]/route";
import * as runEvents from "./[simulation_id]/runs/[simulation_run_id]/events/route";
import * as runItem from "./[simulation_id]/runs/[simulation_run_id]/route";
import * as runs from "./[simulation_id]/runs/route";
import * as simulations from "./route";

const RUN_FIELDS = ["id", "status", "type", "created_at", "updated_at"];
const EVENT_FIELDS = ["id", "status", "event_type", "payload", "request", "response", "created_at", "updated_at"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const CREATION_EVENTS = [
  "transaction.created",
  "customer.created",
  "address.created",
  "transaction.updated",
  "transaction.ready",
  "transaction.updated",
  "transaction.paid",
  "subscription.created",
  "subscription.activated",
  "transaction.updated",
  "transaction.updated",
  "transaction.completed",
  "payment_method.saved",
];

const api = resource("/simulations", "simulation_id", simulations, simulationItem);

let receiver: Receiver;
let destination: Destination;

beforeAll(async () => {
  receiver = await startReceiver();
  destination = await createDestination({ destination: receiver.url });
});

afterAll(async () => {
  await receiver.close();
});

async function simulation(extra: Record<string, unknown> = {}, key?: Key): Promise<Record<string, any>> {
  const res = await api.create(
    { notification_setting_id: destination.id, name: "Test run", type: "subscription_creation", ...extra },
    key,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const runPath = (sim: string) => `/simulations/${sim}/runs`;

function startRun(sim: string, key?: Key): Promise<ApiResult> {
  return callAt(runs, "POST", runPath(sim), { simulation_id: sim }, { key });
}

async function runOk(sim: string, key?: Key): Promise<Record<string, any>> {
  const res = await startRun(sim, key);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

function listRuns(sim: string, q = "", key?: Key) {
  return callAt(runs, "GET", `${runPath(sim)}${q}`, { simulation_id: sim }, { key });
}

function getRun(sim: string, run: string, q = "", key?: Key) {
  return callAt(runItem, "GET", `${runPath(sim)}/${run}${q}`, { simulation_id: sim, simulation_run_id: run }, { key });
}

function listEvents(sim: string, run: string, q = "", key?: Key) {
  return callAt(
    runEvents,
    "GET",
    `${runPath(sim)}/${run}/events${q}`,
    { simulation_id: sim, simulation_run_id: run },
    { key },
  );
}

function getEvent(sim: string, run: string, evt: string, key?: Key) {
  return callAt(
    runEvent,
    "GET",
    `${runPath(sim)}/${run}/events/${evt}`,
    { simulation_id: sim, simulation_run_id: run, simulation_event_id: evt },
    { key },
  );
}

function replay(sim: string, run: string, evt: string, key?: Key) {
  return callAt(
    replayRoute,
    "POST",
    `${runPath(sim)}/${run}/events/${evt}/replay`,
    { simulation_id: sim, simulation_run_id: run, simulation_event_id: evt },
    { key },
  );
}

async function eventsOf(sim: string, run: string): Promise<Record<string, any>[]> {
  const res = await listEvents(sim, run, "?per_page=200");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Runs the simulation to the end and returns the run, its events and what the receiver got. */
async function runToEnd(sim: string) {
  const run = await runOk(sim);
  const before = receiver.received.length;
  await executeSimulationRun(run.id);
  return { run, events: await eventsOf(sim, run.id), received: receiver.received.slice(before) };
}

async function realCustomer() {
  const customer = (
    await createCustomer(createCustomerBody.parse({ email: `${newId("ctm")}@example.com`, name: "Real Person" }))
  ).parse();
  const address = (
    await createAddress(customer.id, createAddressBody.parse({ country_code: "GB", postal_code: "SW1A 1AA" }))
  ).parse();
  return { customer, address };
}

describe("POST /simulations/{simulation_id}/runs", () => {
  it("creates a pending run with its events in scenario order, sets last_run_at and queues the work", async () => {
    const sim = await simulation();
    const res = await startRun(sim.id);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    const run = res.body.data;
    expect(Object.keys(run)).toEqual(RUN_FIELDS);
    expect(run.id).toMatch(/^ntfsimrun_[a-z0-9]{26}$/);
    expect(run).toMatchObject({ status: "pending", type: "subscription_creation" });
    expect(run.created_at).toMatch(TIMESTAMP);

    const events = await eventsOf(sim.id, run.id);
    expect(events.map((e) => e.event_type)).toEqual(CREATION_EVENTS);
    for (const e of events) {
      expect(Object.keys(e)).toEqual(EVENT_FIELDS);
      expect(e.id).toMatch(/^ntfsimevt_[a-z0-9]{26}$/);
      expect(e).toMatchObject({ status: "pending", request: null, response: null });
      expect(typeof e.payload).toBe("object");
    }
    const after = (await api.get(sim.id)).body.data;
    expect(after.last_run_at).toMatch(TIMESTAMP);
    expect(after.updated_at).toBe(sim.updated_at);

    const jobs = await query<{ n: number }>(
      `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks t ON t.id = j.task_id
       WHERE t.identifier = 'run_simulation' AND j.payload->>'id' = $1`,
      [run.id],
    );
    expect(jobs[0]!.n).toBe(1);
  });

  it("a single event simulation runs one event: the example, or the example with the payload's parts", async () => {
    const plain = await simulation({ type: "customer.updated" });
    const run = await runOk(plain.id);
    const [event] = await eventsOf(plain.id, run.id);
    expect(event!.event_type).toBe("customer.updated");
    expect(event!.payload).toEqual(exampleCustomer());

    const custom = await simulation({
      type: "customer.updated",
      payload: { name: "Partial Person", custom_data: { tier: "gold" }, extra_field: 1 },
    });
    const customRun = await runOk(custom.id);
    const [merged] = await eventsOf(custom.id, customRun.id);
    expect(merged!.payload).toEqual({
      ...exampleCustomer(),
      name: "Partial Person",
      custom_data: { tier: "gold" },
      extra_field: 1,
    });
    expect(Object.keys(merged!.payload).slice(0, 3)).toEqual(["id", "name", "email"]);
  });

  it("follows the options: a failed renewal whose dunning cancels the subscription", async () => {
    const { subscription, customer } = await subscribeAtCheckout({ quantity: 3 });
    const subscriptionId = subscription.id;
    const sim = await simulation({
      type: "subscription_renewal",
      config: {
        subscription_renewal: { entities: { subscription_id: subscriptionId }, options: { payment_outcome: "failed" } },
      },
    });
    const run = await runOk(sim.id);
    const events = await eventsOf(sim.id, run.id);
    expect(events.map((e) => e.event_type)).toEqual([
      "subscription.updated",
      "transaction.created",
      "transaction.billed",
      "transaction.payment_failed",
      "transaction.updated",
      "transaction.past_due",
      "subscription.updated",
      "subscription.past_due",
      "subscription.updated",
      "subscription.canceled",
      "transaction.updated",
      "transaction.canceled",
    ]);
    // The stored subscription makes the story: its ID, customer and items (the dates are the story's).
    for (const e of events) {
      const sub = e.event_type.startsWith("subscription.") ? e.payload.id : e.payload.subscription_id;
      expect(sub).toBe(subscriptionId);
      expect(e.payload.customer_id).toBe(customer.id);
    }
    expect(events[0]!.payload.items[0].quantity).toBe(3);
    expect(events[0]!.payload.items[0].price.id).toBe(subscription.items[0].price.id);
    expect(events.at(-3)?.payload.status).toBe("canceled");
    expect(events.at(-1)?.payload.status).toBe("canceled");
  });

  it("follows the options: pause at the end of the period with a past due transaction", async () => {
    const sim = await simulation({
      type: "subscription_pause",
      config: {
        subscription_pause: { options: { effective_from: "next_billing_period", has_past_due_transaction: true } },
      },
    });
    const events = await eventsOf(sim.id, (await runOk(sim.id)).id);
    expect(events.map((e) => e.event_type)).toEqual([
      "subscription.updated",
      "subscription.updated",
      "subscription.paused",
      "transaction.updated",
      "transaction.canceled",
    ]);
    expect(events[0]!.payload.scheduled_change).toMatchObject({ action: "pause", resume_at: null });
    expect(events[2]!.payload).toMatchObject({ status: "paused", current_billing_period: null, next_billed_at: null });
    expect(events[2]!.payload.paused_at).toBe(events[0]!.payload.scheduled_change.effective_at);
  });

  it("refuses to run an archived simulation (400 entity_archived) and runs it again once unarchived", async () => {
    const sim = await simulation();
    await api.update(sim.id, { status: "archived" });
    const error = expectError(await startRun(sim.id), 400, "entity_archived");
    expect(error.detail).toContain(sim.id);
    expect((await query("SELECT 1 FROM simulation_runs WHERE simulation_id = $1", [sim.id])).length).toBe(0);
    await api.update(sim.id, { status: "active" });
    expect((await startRun(sim.id)).status).toBe(201);
  });

  it("refuses (409) when the destination no longer takes simulation traffic or is inactive", async () => {
    const own = await createDestination({ destination: receiver.url });
    const sim = await simulation({ notification_setting_id: own.id });
    await updateDestination(own.id, { traffic_source: "platform" });
    expect(expectError(await startRun(sim.id), 409, "conflict").detail).toContain("traffic_source platform");
    await updateDestination(own.id, { traffic_source: "all", active: false });
    expect(expectError(await startRun(sim.id), 409, "conflict").detail).toContain("inactive");
    await updateDestination(own.id, { active: true });
    expect((await startRun(sim.id)).status).toBe(201);
  });

  it("needs read permission for the entities the config names, now too", async () => {
    const { customer } = await realCustomer();
    const sim = await simulation({ config: { subscription_creation: { entities: { customer_id: customer.id } } } });
    const key = await testKey(["notification_simulation.write"]);
    const error = expectError(await startRun(sim.id, key), 403, "forbidden");
    expect(error.detail).toContain("customer.read");
    expect((await startRun(sim.id, await testKey(["notification_simulation.write", "customer.read"]))).status).toBe(
      201,
    );
  });

  it("is 404 for an unknown or malformed simulation ID", async () => {
    for (const id of [newId("ntfsim"), "ntfsim_1", newId("ntfsimrun")]) {
      expect(expectError(await startRun(id), 404, "not_found").detail).toContain(id);
    }
  });
});

describe("GET runs and run events", () => {
  it("gets a run, with include=events its events in order", async () => {
    const sim = await simulation({ type: "subscription_cancellation" });
    const run = await runOk(sim.id);
    const plain = await getRun(sim.id, run.id);
    expect(plain.status).toBe(200);
    expect(plain.body.data).toEqual(run);
    const withEvents = await getRun(sim.id, run.id, "?include=events");
    expect(Object.keys(withEvents.body.data)).toEqual([...RUN_FIELDS, "events"]);
    expect(withEvents.body.data.events).toEqual(await eventsOf(sim.id, run.id));
    expect(withEvents.body.data.events.map((e: any) => e.event_type)).toEqual([
      "subscription.updated",
      "subscription.canceled",
    ]);
    const res = await getRun(sim.id, run.id, "?include=payloads");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)[0]).toMatch(/^include/);
  });

  it("lists runs of a simulation (newest last), with filters, include and pagination", async () => {
    const sim = await simulation({ type: "customer.created" });
    const other = await simulation({ type: "customer.created" });
    const made = [await runOk(sim.id), await runOk(sim.id), await runOk(sim.id)];
    await runOk(other.id);
    const res = await listRuns(sim.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(made);
    expect(res.body.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 3 });
    expect(ids(await listRuns(sim.id, "?order_by=id[DESC]"))).toEqual(made.map((r) => r.id).reverse());
    expect(ids(await listRuns(sim.id, `?id=${made[1]!.id}`))).toEqual([made[1]!.id]);
    const page = await listRuns(sim.id, "?per_page=2");
    expect(page.body.meta.pagination).toMatchObject({ per_page: 2, has_more: true });
    expect(ids(await listRuns(sim.id, `?after=${made[1]!.id}`))).toEqual([made[2]!.id]);
    const included = await listRuns(sim.id, "?include=events");
    expect(included.body.data[0].events).toHaveLength(1);
    expect((await listRuns(other.id)).body.data).toHaveLength(1);
    expect((await listRuns((await simulation()).id)).body.data).toEqual([]);
    for (const q of ["?id=nope", "?order_by=status[ASC]", "?include=x"]) {
      expectError(await listRuns(sim.id, q), 400, "invalid_field");
    }
  });

  it("gets and lists run events, with filters and pagination", async () => {
    const sim = await simulation();
    const run = await runOk(sim.id);
    const all = await eventsOf(sim.id, run.id);
    const first = await getEvent(sim.id, run.id, all[0]!.id);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(["data", "meta"]);
    expect(first.body.data).toEqual(all[0]);
    const page = await listEvents(sim.id, run.id, "?per_page=5");
    expect(ids(page)).toEqual(all.slice(0, 5).map((e) => e.id));
    expect(page.body.meta.pagination).toMatchObject({ per_page: 5, has_more: true, estimated_total: all.length });
    expect(ids(await listEvents(sim.id, run.id, `?id=${all[2]!.id},${all[4]!.id}`))).toEqual([all[2]!.id, all[4]!.id]);
    expect(ids(await listEvents(sim.id, run.id, "?order_by=id[DESC]&per_page=1"))).toEqual([all.at(-1)?.id]);
    expectError(await listEvents(sim.id, run.id, "?id=ntfsimevt_1"), 400, "invalid_field");
  });

  it("is 404 for unknown IDs and for IDs that do not belong together", async () => {
    const a = await simulation({ type: "customer.created" });
    const b = await simulation({ type: "customer.created" });
    const runA = await runOk(a.id);
    const runB = await runOk(b.id);
    const [eventA] = await eventsOf(a.id, runA.id);
    const unknownSim = newId("ntfsim");
    const unknownRun = newId("ntfsimrun");
    const unknownEvent = newId("ntfsimevt");
    const expectNotFound = (res: ApiResult, id: string) =>
      expect(expectError(res, 404, "not_found").detail).toContain(id);

    expectNotFound(await getRun(unknownSim, runA.id), unknownSim);
    expectNotFound(await getRun(a.id, unknownRun), unknownRun);
    expectNotFound(await getRun(b.id, runA.id), runA.id);
    expectNotFound(await getRun(a.id, "ntfsimrun_x"), "ntfsimrun_x");
    expectNotFound(await listRuns(unknownSim), unknownSim);

    expectNotFound(await listEvents(unknownSim, runA.id), unknownSim);
    expectNotFound(await listEvents(a.id, unknownRun), unknownRun);
    expectNotFound(await listEvents(a.id, runB.id), runB.id);

    expectNotFound(await getEvent(a.id, runA.id, unknownEvent), unknownEvent);
    expectNotFound(await getEvent(a.id, runB.id, eventA!.id), runB.id);
    expectNotFound(await getEvent(b.id, runA.id, eventA!.id), runA.id);
    expectNotFound(await getEvent(unknownSim, runA.id, eventA!.id), unknownSim);
    const [eventB] = await eventsOf(b.id, runB.id);
    expectNotFound(await getEvent(b.id, runB.id, eventA!.id), eventA!.id);
    expectNotFound(await getEvent(a.id, runA.id, eventB!.id), eventB!.id);
    expectNotFound(await getEvent(a.id, runA.id, "ntfsimevt_1"), "ntfsimevt_1");

    expectNotFound(await replay(a.id, runA.id, unknownEvent), unknownEvent);
    expectNotFound(await replay(b.id, runA.id, eventA!.id), runA.id);
    expectNotFound(await replay(a.id, runB.id, eventA!.id), runB.id);
  });
});

describe("executeSimulationRun", () => {
  it("sends every event in order, signed, and records each request and response", async () => {
    const sim = await simulation();
    const { run, events, received } = await runToEnd(sim.id);
    expect(received.map((r) => JSON.parse(r.body).event_type)).toEqual(CREATION_EVENTS);
    expect(events.map((e) => e.event_type)).toEqual(CREATION_EVENTS);
    const notificationIds = new Set<string>();
    received.forEach((request, i) => {
      const event = events[i];
      expect(request.headers["content-type"]).toBe("application/json");
      const signature = request.headers["service-signature"] as string;
      expect(verifySignature(destination.secret, request.body, signature)).toBe(true);
      expect(verifySignature(newId("ntfset"), request.body, signature)).toBe(false);
      const envelope = JSON.parse(request.body);
      expect(Object.keys(envelope)).toEqual(["event_id", "event_type", "occurred_at", "notification_id", "data"]);
      expect(envelope.event_id).toMatch(/^evt_[a-z0-9]{26}$/);
      expect(envelope.notification_id).toMatch(/^ntf_[a-z0-9]{26}$/);
      expect(envelope.occurred_at).toMatch(TIMESTAMP);
      expect(envelope.event_type).toBe(event!.event_type);
      notificationIds.add(envelope.notification_id);
      // What was sent is recorded, byte for byte, with the answer.
      expect(event!.status).toBe("success");
      expect(event!.request).toEqual({ body: request.body });
      expect(event!.response).toEqual({ body: "ok", status_code: 200 });
      expect(event!.updated_at >= event!.created_at).toBe(true);
    });
    expect(notificationIds.size).toBe(received.length);
    expect((await getRun(sim.id, run.id)).body.data.status).toBe("completed");
  });

  it("redacts sensitive fields as real deliveries do, unless the destination includes them", async () => {
    const sim = await simulation({ type: "subscription_renewal" });
    const { received, events } = await runToEnd(sim.id);
    const first = JSON.parse(received[0]!.body);
    expect(first.event_type).toBe("subscription.updated");
    expect(first.data.management_urls).toBeNull();
    expect(events[0]!.payload.management_urls).not.toBeNull();
    const completed = JSON.parse(received.at(-1)!.body);
    expect(completed.event_type).toBe("transaction.completed");
    expect(completed.data.payments).toBeNull();
    expect(completed.data.checkout).toBeNull();
    // Only the sensitive fields change; the rest (and the key order) is the payload.
    expect(Object.keys(completed.data)).toEqual(Object.keys(events.at(-1)!.payload));
    expect({ ...completed.data, payments: null, checkout: null }).toEqual({
      ...events.at(-1)!.payload,
      payments: null,
      checkout: null,
    });

    const sensitive = await createDestination({ destination: receiver.url, include_sensitive_fields: true });
    const open = await simulation({ notification_setting_id: sensitive.id, type: "subscription_renewal" });
    const { received: all, events: openEvents } = await runToEnd(open.id);
    all.forEach((request, i) => {
      expect(JSON.parse(request.body).data).toEqual(openEvents[i]!.payload);
    });
    expect(verifySignature(sensitive.secret, all[0]!.body, all[0]!.headers["service-signature"] as string)).toBe(true);
  });

  it("is idempotent: a second call sends nothing again", async () => {
    const sim = await simulation({ type: "subscription_pause" });
    const { run, received } = await runToEnd(sim.id);
    expect(received).toHaveLength(2);
    const before = receiver.received.length;
    await executeSimulationRun(run.id);
    await Promise.all([executeSimulationRun(run.id), executeSimulationRun(run.id)]);
    expect(receiver.received.length).toBe(before);
    // Concurrent first executions send each event once too.
    const again = await runOk(sim.id);
    const start = receiver.received.length;
    await Promise.all([executeSimulationRun(again.id), executeSimulationRun(again.id)]);
    expect(receiver.received.length - start).toBe(2);
    expect((await getRun(sim.id, again.id)).body.data.status).toBe("completed");
    await executeSimulationRun(newId("ntfsimrun"));
  });

  it("records a failed answer (5xx) as failed, with its status and body, and goes on", async () => {
    const failing = await startReceiver();
    failing.respond((nth) => (nth === 0 ? { status: 500, body: "boom" } : { status: 204 }));
    try {
      const own = await createDestination({ destination: failing.url });
      const sim = await simulation({ notification_setting_id: own.id, type: "subscription_cancellation" });
      const run = await runOk(sim.id);
      await executeSimulationRun(run.id);
      const events = await eventsOf(sim.id, run.id);
      expect(failing.received).toHaveLength(2);
      expect(events[0]).toMatchObject({
        status: "failed",
        request: { body: failing.received[0]!.body },
        response: { body: "boom", status_code: 500 },
      });
      expect(events[1]).toMatchObject({ status: "success", response: { body: "", status_code: 204 } });
      expect((await getRun(sim.id, run.id)).body.data.status).toBe("completed");
    } finally {
      await failing.close();
    }
  });

  it("records no response when nothing answers", async () => {
    const gone = await startReceiver();
    const url = gone.url;
    await gone.close();
    const own = await createDestination({ destination: url });
    const sim = await simulation({ notification_setting_id: own.id, type: "customer.created" });
    const run = await runOk(sim.id);
    await executeSimulationRun(run.id);
    const [event] = await eventsOf(sim.id, run.id);
    expect(event!.status).toBe("failed");
    expect(JSON.parse(event!.request.body).event_type).toBe("customer.created");
    expect(event!.response).toBeNull();
  });

  it("aborts the remaining events and cancels the run when the destination cannot receive them", async () => {
    for (const change of [{ traffic_source: "platform" }, { active: false }]) {
      const own = await createDestination({ destination: receiver.url });
      const sim = await simulation({ notification_setting_id: own.id });
      const run = await runOk(sim.id);
      await updateDestination(own.id, change);
      const before = receiver.received.length;
      await executeSimulationRun(run.id);
      expect(receiver.received.length).toBe(before);
      const events = await eventsOf(sim.id, run.id);
      expect(events.every((e) => e.status === "aborted" && e.request === null && e.response === null)).toBe(true);
      expect((await getRun(sim.id, run.id)).body.data.status).toBe("canceled");
    }
  });

  it("carries a real customer's data when config names the customer, examples otherwise", async () => {
    const { customer, address } = await realCustomer();
    const product = (await createProduct(createProductBody.parse({ name: "Real plan", tax_category: "saas" }))).parse();
    const price = (
      await createPrice(
        createPriceBody.parse({
          product_id: product.id,
          description: "Yearly",
          unit_price: { amount: "12000", currency_code: "GBP" },
          billing_cycle: { interval: "year", frequency: 1 },
        }),
      )
    ).parse();
    const sim = await simulation({
      config: {
        subscription_creation: {
          entities: { customer_id: customer.id, address_id: address.id, items: [{ price_id: price.id, quantity: 4 }] },
        },
      },
    });
    const { events, received } = await runToEnd(sim.id);
    const byType = (type: string) => events.filter((e) => e.event_type === type);
    const realCustomerJson = (await getCustomer(customer.id)).parse();
    expect(byType("customer.created")[0]!.payload).toEqual(realCustomerJson);
    expect(Object.keys(byType("customer.created")[0]!.payload)).toEqual(Object.keys(realCustomerJson));
    expect(byType("address.created")[0]!.payload).toEqual((await getAddress(customer.id, address.id)).parse());
    const completed = byType("transaction.completed")[0]!.payload;
    expect(completed).toMatchObject({ customer_id: customer.id, address_id: address.id, currency_code: "GBP" });
    expect(completed.items[0]).toEqual({
      price_id: price.id,
      price: (await getPrice(price.id)).parse(),
      quantity: 4,
      proration: null,
    });
    expect(completed.details.line_items[0].product).toEqual((await getProduct(product.id)).parse());
    expect(completed.details.totals).toMatchObject({ subtotal: "48000", tax: "9600", total: "57600" });
    const created = byType("subscription.created")[0]!.payload;
    expect(created).toMatchObject({
      customer_id: customer.id,
      address_id: address.id,
      billing_cycle: { interval: "year", frequency: 1 },
    });
    expect(created.current_billing_period.ends_at.slice(0, 4)).toBe("2025");
    expect(JSON.parse(received[1]!.body).data).toEqual(realCustomerJson);
    // The payment method (not stored yet) is an example, linked to the real customer.
    expect(byType("payment_method.saved")[0]!.payload).toMatchObject({
      id: EXAMPLE_IDS.paymentMethod,
      customer_id: customer.id,
      address_id: address.id,
    });

    const plain = await simulation();
    const { events: examples } = await runToEnd(plain.id);
    expect(examples.find((e) => e.event_type === "customer.created")?.payload).toEqual(exampleCustomer());
    for (const e of examples) {
      if (e.event_type.startsWith("transaction.") || e.event_type.startsWith("subscription.")) {
        const customerId = e.payload.customer_id;
        if (customerId !== null) expect(customerId).toBe(EXAMPLE_IDS.customer);
      }
    }
  });

  it("uses examples for a product the key may not read", async () => {
    const product = (
      await createProduct(createProductBody.parse({ name: "Secret plan", tax_category: "saas" }))
    ).parse();
    const price = (
      await createPrice(
        createPriceBody.parse({
          product_id: product.id,
          description: "Monthly",
          unit_price: { amount: "900", currency_code: "USD" },
          billing_cycle: { interval: "month", frequency: 1 },
        }),
      )
    ).parse();
    const key = await testKey(["notification_simulation.write", "price.read"]);
    const sim = await simulation(
      { config: { subscription_creation: { entities: { items: [{ price_id: price.id, quantity: 1 }] } } } },
      key,
    );
    const run = await runOk(sim.id, key);
    const events = await eventsOf(sim.id, run.id);
    const product0 = events[0]!.payload.details.line_items[0].product;
    expect(product0.id).toBe(product.id);
    expect(product0.name).not.toBe("Secret plan");
    expect(events[0]!.payload.items[0].price.id).toBe(price.id);
  });
});

describe("POST .../events/{simulation_event_id}/replay", () => {
  it("sends the event again now and returns it with the new request and response", async () => {
    const sim = await simulation({ type: "subscription_pause" });
    const { run, events } = await runToEnd(sim.id);
    const before = receiver.received.length;
    receiver.respond(() => ({ status: 202, body: "again" }));
    try {
      const res = await replay(sim.id, run.id, events[1]!.id);
      // 202 like the family's (and our notification replay), though the delivery is already done.
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(Object.keys(res.body.data)).toEqual(EVENT_FIELDS);
      expect(receiver.received.length).toBe(before + 1);
      const sent = receiver.received.at(-1)!;
      expect(verifySignature(destination.secret, sent.body, sent.headers["service-signature"] as string)).toBe(true);
      const replayed = res.body.data;
      expect(replayed).toMatchObject({
        id: events[1]!.id,
        status: "success",
        event_type: "subscription.paused",
        payload: events[1]!.payload,
        request: { body: sent.body },
        response: { body: "again", status_code: 202 },
      });
      expect(replayed.updated_at >= events[1]!.updated_at).toBe(true);
      // The same event (event_id, occurred_at), delivered again as a new notification.
      const first = JSON.parse(events[1]!.request.body);
      const again = JSON.parse(sent.body);
      expect(again.event_id).toBe(first.event_id);
      expect(again.occurred_at).toBe(first.occurred_at);
      expect(again.notification_id).not.toBe(first.notification_id);
      expect((await getEvent(sim.id, run.id, events[1]!.id)).body.data).toEqual(replayed);
    } finally {
      receiver.respond(() => ({ status: 200, body: "ok" }));
    }
  });

  it("replays a failed event into success, and a pending one before its run", async () => {
    const flaky = await startReceiver();
    flaky.respond((nth) => (nth === 0 ? { status: 503, body: "later" } : { status: 200, body: "ok" }));
    try {
      const own = await createDestination({ destination: flaky.url });
      const sim = await simulation({ notification_setting_id: own.id, type: "customer.created" });
      const run = await runOk(sim.id);
      await executeSimulationRun(run.id);
      const [failed] = await eventsOf(sim.id, run.id);
      expect(failed!.status).toBe("failed");
      const res = await replay(sim.id, run.id, failed!.id);
      expect(res.body.data).toMatchObject({ status: "success", response: { status_code: 200, body: "ok" } });

      const pendingRun = await runOk(sim.id);
      const [pending] = await eventsOf(sim.id, pendingRun.id);
      expect((await replay(sim.id, pendingRun.id, pending!.id)).body.data.status).toBe("success");
      await executeSimulationRun(pendingRun.id);
      expect(flaky.received).toHaveLength(3);
      expect((await getRun(sim.id, pendingRun.id)).body.data.status).toBe("completed");
    } finally {
      await flaky.close();
    }
  });

  it("refuses (409) when the destination cannot receive it, changing nothing", async () => {
    const own = await createDestination({ destination: receiver.url });
    const sim = await simulation({ notification_setting_id: own.id, type: "customer.created" });
    const { run, events } = await runToEnd(sim.id);
    await updateDestination(own.id, { traffic_source: "platform" });
    const before = receiver.received.length;
    expectError(await replay(sim.id, run.id, events[0]!.id), 409, "conflict");
    expect(receiver.received.length).toBe(before);
    expect((await getEvent(sim.id, run.id, events[0]!.id)).body.data).toEqual(events[0]);
  });
});

describe("examples", () => {
  it("are shaped exactly like the API's entities, field for field and in order", async () => {
    const { customer, address } = await realCustomer();
    const business = (await createBusiness(customer.id, createBusinessBody.parse({ name: "Shape Ltd" }))).parse();
    const product = (await createProduct(createProductBody.parse({ name: "Shape", tax_category: "standard" }))).parse();
    const price = (
      await createPrice(
        createPriceBody.parse({
          product_id: product.id,
          description: "Shape",
          unit_price: { amount: "100", currency_code: "USD" },
          billing_cycle: { interval: "month", frequency: 1 },
        }),
      )
    ).parse();
    const discount = (
      await createDiscount(createDiscountBody.parse({ description: "Shape", type: "percentage", amount: "5" }))
    ).parse();
    const group = (await createDiscountGroup(createDiscountGroupBody.parse({ name: "Shape" }))).parse();
    const pairs: [unknown, unknown][] = [
      [exampleCustomer(), customer],
      [exampleAddress(), address],
      [exampleBusiness(), business],
      [exampleProduct(), product],
      [examplePrice(), price],
      [exampleDiscount(), discount],
      [exampleDiscountGroup(), group],
    ];
    for (const [example, real] of pairs) expect(Object.keys(example as object)).toEqual(Object.keys(real as object));
  });

  it("exist for every event type, with IDs of the right shape", () => {
    for (const { name } of EVENT_TYPES) {
      const payload = examplePayload(name);
      expect(typeof payload.id, name).toBe("string");
    }
    for (const [kind, id] of Object.entries(EXAMPLE_IDS)) {
      if (kind === "payout") expect(id).toMatch(/^[a-z0-9]{26}$/);
      else expect(id, kind).toMatch(/^[a-z]+_[a-z0-9]{26}$/);
    }
  });
});

describe("permissions", () => {
  const WITHOUT = permissionsWithout("notification_simulation.");

  it("reading runs and events needs notification_simulation.read; write implies read", async () => {
    const sim = await simulation({ type: "customer.created" });
    const run = await runOk(sim.id);
    const [event] = await eventsOf(sim.id, run.id);
    const allowed = [["notification_simulation.read"], ["notification_simulation.write"]];
    const permission = "notification_simulation.read";
    for (const request of [
      (key: string) => listRuns(sim.id, "", key),
      (key: string) => getRun(sim.id, run.id, "", key),
      (key: string) => listEvents(sim.id, run.id, "", key),
      (key: string) => getEvent(sim.id, run.id, event!.id, key),
    ]) {
      await expectPermission(request, { permission, denied: [WITHOUT, ["notification.read"]], allowed });
    }
  });

  it("creating a run and replaying need notification_simulation.write", async () => {
    const sim = await simulation({ type: "customer.created" });
    await expectForbidden(
      (key) => startRun(sim.id, key),
      [WITHOUT, ["notification_simulation.read"]],
      "notification_simulation.write",
    );
    expect((await query("SELECT 1 FROM simulation_runs WHERE simulation_id = $1", [sim.id])).length).toBe(0);
    const run = await runOk(sim.id, await testKey(["notification_simulation.write"]));
    const [event] = await eventsOf(sim.id, run.id);
    const before = receiver.received.length;
    await expectForbidden(
      (key) => replay(sim.id, run.id, event!.id, key),
      [WITHOUT, ["notification_simulation.read"]],
      "notification_simulation.write",
    );
    expect(receiver.received.length).toBe(before);
    const res = await replay(sim.id, run.id, event!.id, await testKey(["notification_simulation.write"]));
    expect(res.status).toBe(202);
  });

  it("refuses requests without a key (401) and checks the permission before the lookup", async () => {
    const sim = newId("ntfsim");
    const run = newId("ntfsimrun");
    const evt = newId("ntfsimevt");
    for (const res of [
      await startRun(sim, null),
      await listRuns(sim, "", null),
      await getRun(sim, run, "", null),
      await listEvents(sim, run, "", null),
      await getEvent(sim, run, evt, null),
      await replay(sim, run, evt, null),
    ]) {
      expectError(res, 401, "invalid_token");
    }
    const key = await testKey(["customer.read"]);
    expectError(await getRun(sim, run, "", key), 403, "forbidden");
    expectError(await startRun(sim, key), 403, "forbidden");
  });
});

describe("methods", () => {
  it("answers 405 for methods the paths do not have", async () => {
    const sim = newId("ntfsim");
    const run = newId("ntfsimrun");
    const evt = newId("ntfsimevt");
    await expectMethodsNotAllowed(runs, ["PUT", "PATCH", "DELETE"], runPath(sim));
    await expectMethodsNotAllowed(runItem, ["POST", "PUT", "PATCH", "DELETE"], `${runPath(sim)}/${run}`);
    await expectMethodsNotAllowed(runEvents, ["POST", "PUT", "PATCH", "DELETE"], `${runPath(sim)}/${run}/events`);
    await expectMethodsNotAllowed(runEvent, ["POST", "PUT", "PATCH", "DELETE"], `${runPath(sim)}/${run}/events/${evt}`);
    await expectMethodsNotAllowed(
      replayRoute,
      ["GET", "PUT", "PATCH", "DELETE"],
      `${runPath(sim)}/${run}/events/${evt}/replay`,
    );
  });
});
