/**
 * Every event type has a payload schema (lib/schemas/event-payloads.ts), and every payload the
 * webhook simulator sends (lib/simulator/examples, lib/simulator/scenarios.ts) matches it strictly:
 * a simulated event is what a real one would be.
 */
import { describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { EVENT_TYPES } from "@/lib/events/catalogue";
import {
  EVENT_DATA_SCHEMAS,
  EVENT_SCHEMAS,
  eventFamily,
  NOTIFICATION_PAYLOAD_SCHEMAS,
  SENSITIVE_FIELDS,
} from "@/lib/schemas/event-payloads";
import { strictProblems } from "@/lib/schemas/strict";
import { exampleCast } from "@/lib/simulator/examples/cast";
import { examplePayload } from "@/lib/simulator/examples/payloads";
import {
  BUSINESS_SIMULATED_AS,
  CUSTOMER_SIMULATED_AS,
  DISCOUNT_SIMULATED_AS,
  DUNNING_EXHAUSTED_ACTIONS,
  defaultScenarioConfig,
  EFFECTIVE_FROM,
  PAYMENT_OUTCOMES,
  SCENARIOS,
  type ScenarioConfig,
  type ScenarioName,
  scenarioEvents,
} from "@/lib/simulator/scenarios";
import { eventSchema } from "./event.ts";

/** Each problem of `payload` as `type`'s data, naming what it is the payload of (one line each). */
function payloadProblems(type: string, payload: unknown, what: string): string[] {
  const schema = EVENT_DATA_SCHEMAS[type];
  if (!schema) return [`${what}: ${type} has no payload schema`];
  return strictProblems(schema, payload).map((problem) => `${what} (${type}): ${problem}`);
}

/** Each scenario with each value of each of its options (the others at their defaults). */
function scenarioConfigs(name: ScenarioName): ScenarioConfig[] {
  const base = defaultScenarioConfig(name) as ScenarioConfig;
  const choices: Record<string, readonly unknown[]> = {
    customer_simulated_as: CUSTOMER_SIMULATED_AS,
    business_simulated_as: BUSINESS_SIMULATED_AS,
    discount_simulated_as: DISCOUNT_SIMULATED_AS,
    payment_outcome: PAYMENT_OUTCOMES,
    dunning_exhausted_action: [...DUNNING_EXHAUSTED_ACTIONS, null],
    effective_from: EFFECTIVE_FROM,
    has_past_due_transaction: [true, false],
  };
  const configs: ScenarioConfig[] = [base];
  for (const key of Object.keys(base.options)) {
    for (const value of choices[key] ?? []) {
      configs.push({ ...base, options: { ...base.options, [key]: value } } as ScenarioConfig);
    }
  }
  return configs;
}

describe("event payload schemas", () => {
  it("has one for every event type of the catalogue, and none for a type it lacks", () => {
    expect(Object.keys(EVENT_DATA_SCHEMAS).sort()).toEqual(EVENT_TYPES.map((t) => t.name).sort());
    expect(Object.keys(EVENT_SCHEMAS).sort()).toEqual(Object.keys(EVENT_DATA_SCHEMAS).sort());
    expect(Object.keys(NOTIFICATION_PAYLOAD_SCHEMAS).sort()).toEqual(Object.keys(EVENT_DATA_SCHEMAS).sort());
  });

  it("takes each single-event simulation's example payload strictly", () => {
    const problems = EVENT_TYPES.flatMap((type) =>
      payloadProblems(type.name, examplePayload(type.name), "the example"),
    );
    expect(problems).toEqual([]);
  });

  it("takes every payload of every scenario, with each option, strictly", () => {
    const problems = new Set<string>();
    for (const name of SCENARIOS) {
      for (const config of scenarioConfigs(name)) {
        for (const named of [
          { business: false, discount: false },
          { business: true, discount: true },
        ]) {
          for (const event of scenarioEvents(name, config, exampleCast(), named)) {
            const what = `${name} ${JSON.stringify(config.options)}`;
            for (const problem of payloadProblems(event.event_type, event.payload, what)) problems.add(problem);
          }
        }
      }
    }
    expect([...problems]).toEqual([]);
  });

  it("reads an event by its type in GET /events' union, and refuses another type's data", () => {
    const event = {
      event_id: "evt_01j82g2d3e8yq0v5c1pmt2m9vh",
      event_type: "customer.created",
      occurred_at: "2024-09-18T12:00:00.000000Z",
      data: examplePayload("customer.created"),
    };
    expect(strictProblems(eventSchema, event)).toEqual([]);
    expect(strictProblems(eventSchema, { ...event, data: { ...event.data, extra: 1 } })).toEqual([
      "data.extra: not in the schema",
    ]);
    expect(strictProblems(eventSchema, { ...event, event_type: "product.created" }).length).toBeGreaterThan(0);
  });

  it("makes the sensitive fields nullable in notification payloads only", () => {
    const payload = {
      event_id: "evt_01j82g2d3e8yq0v5c1pmt2m9vh",
      event_type: "transaction.completed",
      occurred_at: "2024-09-18T12:00:00.000000Z",
      notification_id: "ntf_01j82g2d3e8yq0v5c1pmt2m9vh",
      data: { ...examplePayload("transaction.completed"), payments: null, checkout: null },
    };
    expect(strictProblems(NOTIFICATION_PAYLOAD_SCHEMAS["transaction.completed"]!, payload)).toEqual([]);
    expect(strictProblems(EVENT_DATA_SCHEMAS["transaction.completed"]!, payload.data)).toEqual([
      "payments: Invalid input: expected array, received null",
    ]);
  });

  it("nulls the fields the SQL function sensitive_fields() nulls (its twin)", async () => {
    const families = [...new Set(EVENT_TYPES.map((type) => eventFamily(type.name)))];
    const rows = await query<{ family: string; fields: string[] }>(
      "SELECT f AS family, sensitive_fields(f || '.updated') AS fields FROM unnest($1::text[]) f",
      [families],
    );
    const sql = Object.fromEntries(rows.filter((r) => r.fields.length > 0).map((r) => [r.family, r.fields]));
    expect(sql).toEqual(SENSITIVE_FIELDS);
  });
});
