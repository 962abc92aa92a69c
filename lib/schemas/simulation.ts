/**
 * Simulations (webhook simulator): request bodies, queries, path parameters and response shapes of
 * /simulations, its runs and their events. Client-safe.
 *
 * A simulation's `type` is an event type (a single event, whose optional `payload` replaces parts
 * of the example entity) or a scenario (whose optional `config` names real entities and options).
 * The rules that tie fields together are in `simulationShapeProblems`, used by the create schema
 * and, with the stored type, by the service for updates.
 */
import { z } from "zod";
import { fieldPath } from "../errors.ts";
import {
  BUSINESS_SIMULATED_AS,
  CONFIG_KEYS,
  CUSTOMER_SIMULATED_AS,
  DISCOUNT_SIMULATED_AS,
  DUNNING_EXHAUSTED_ACTIONS,
  EFFECTIVE_FROM,
  isScenario,
  isSimulationType,
  PAYMENT_OUTCOMES,
  SCENARIOS,
} from "../simulator/scenarios.ts";
import { csv, entityId, includeParam, listQuery, requiredText, statusEnum } from "./common.ts";

/** Our bound: the API family gives none; 200 as for product names. */
export const SIMULATION_NAME_MAX = 200;
export const MAX_SIMULATION_ITEMS = 100;
export const ITEM_QUANTITY_MAX = 999_999_999;

function oneOf<const V extends readonly [string, ...string[]]>(values: V) {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

/** Payment method IDs (`paymtd_`): we store no payment methods yet, so the prefix lives here. */
const paymentMethodId = z
  .string({ error: "must be a valid paymtd_ ID" })
  .regex(/^paymtd_[a-z0-9]{26}$/, "must be a valid paymtd_ ID");

const item = z.strictObject(
  {
    price_id: entityId("pri"),
    quantity: z
      .number({ error: `must be a whole number from 1 to ${ITEM_QUANTITY_MAX}` })
      .int(`must be a whole number from 1 to ${ITEM_QUANTITY_MAX}`)
      .min(1, `must be a whole number from 1 to ${ITEM_QUANTITY_MAX}`)
      .max(ITEM_QUANTITY_MAX, `must be a whole number from 1 to ${ITEM_QUANTITY_MAX}`),
  },
  { error: "must be an object with price_id and quantity" },
);

const creationEntities = z.strictObject(
  {
    customer_id: entityId("ctm").nullable().optional(),
    address_id: entityId("add").nullable().optional(),
    business_id: entityId("biz").nullable().optional(),
    payment_method_id: paymentMethodId.nullable().optional(),
    discount_id: entityId("dsc").nullable().optional(),
    transaction_id: entityId("txn").nullable().optional(),
    items: z
      .array(item, { error: "must be a list of items or null" })
      .min(1, `must list 1 to ${MAX_SIMULATION_ITEMS} items`)
      .max(MAX_SIMULATION_ITEMS, `must list 1 to ${MAX_SIMULATION_ITEMS} items`)
      .nullable()
      .optional(),
  },
  { error: "must be an object or null" },
);

const creationOptions = z.strictObject(
  {
    customer_simulated_as: oneOf(CUSTOMER_SIMULATED_AS).nullable().optional(),
    business_simulated_as: oneOf(BUSINESS_SIMULATED_AS).nullable().optional(),
    discount_simulated_as: oneOf(DISCOUNT_SIMULATED_AS).nullable().optional(),
  },
  { error: "must be an object or null" },
);

const subscriptionEntities = z.strictObject(
  { subscription_id: entityId("sub").nullable().optional() },
  { error: "must be an object or null" },
);

const paymentOptions = z.strictObject(
  {
    payment_outcome: oneOf(PAYMENT_OUTCOMES).nullable().optional(),
    dunning_exhausted_action: oneOf(DUNNING_EXHAUSTED_ACTIONS).nullable().optional(),
  },
  { error: "must be an object or null" },
);

const effectiveOptions = z.strictObject(
  {
    effective_from: oneOf(EFFECTIVE_FROM).nullable().optional(),
    has_past_due_transaction: z.boolean({ error: "must be true or false" }).nullable().optional(),
  },
  { error: "must be an object or null" },
);

function scenarioConfig<E extends z.ZodType, O extends z.ZodType>(entities: E, options: O) {
  return z
    .strictObject(
      { entities: entities.nullable().optional(), options: options.nullable().optional() },
      { error: "must be an object with entities and options, or null" },
    )
    .nullable()
    .optional();
}

/** `config` as a request sends it: keyed by scenario, parts left out take their defaults. */
export const simulationConfigInput = z
  .strictObject(
    {
      subscription_cancellation: scenarioConfig(subscriptionEntities, effectiveOptions),
      subscription_creation: scenarioConfig(creationEntities, creationOptions),
      subscription_pause: scenarioConfig(subscriptionEntities, effectiveOptions),
      subscription_renewal: scenarioConfig(subscriptionEntities, paymentOptions),
      subscription_resume: scenarioConfig(subscriptionEntities, paymentOptions),
    },
    { error: "must be an object keyed by scenario, or null" },
  )
  .nullable();
export type SimulationConfigInput = z.infer<typeof simulationConfigInput>;

/** A single event's payload: a JSON object (parts of the entity), or null for the example. */
export const simulationPayload = z
  .record(z.string(), z.unknown(), { error: "must be a JSON object or null" })
  .nullable()
  .refine((value) => value === null || (typeof value === "object" && !Array.isArray(value)), {
    message: "must be a JSON object or null",
  });

export const simulationName = requiredText(SIMULATION_NAME_MAX);

export const simulationType = z
  .string({ error: "must be a string" })
  .refine(
    isSimulationType,
    `must be an event type (entity.event, as GET /event-types lists) or a scenario: ${SCENARIOS.join(", ")}`,
  );

export interface ShapeProblem {
  path: (string | number)[];
  message: string;
}

/**
 * What is wrong with `payload` and `config` for a simulation of `type`: a payload only for a
 * single event, a config only for a scenario and only under its own key, and the rules between
 * entities and between options (as in the API family: an address, business or payment method needs
 * the customer it belongs to; items and a transaction are alternatives; what happens when dunning
 * is exhausted only applies to a failed payment).
 */
export function simulationShapeProblems(
  type: string,
  payload: unknown,
  config: SimulationConfigInput | undefined,
): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  if (!isScenario(type)) {
    if (config !== undefined && config !== null) {
      problems.push({ path: ["config"], message: "must be null for a single event simulation; use payload" });
    }
    return problems;
  }
  if (payload !== undefined && payload !== null) {
    problems.push({ path: ["payload"], message: "must be null for a scenario simulation; use config" });
  }
  if (!config) return problems;
  for (const key of CONFIG_KEYS) {
    if (key !== type && config[key] != null) {
      problems.push({ path: ["config", key], message: `must be null for a ${type} simulation` });
    }
  }
  const own = config[type];
  if (type === "subscription_creation" && own) {
    const entities = config.subscription_creation?.entities;
    if (entities) {
      const base = ["config", type, "entities"];
      if (!entities.customer_id) {
        for (const key of ["address_id", "business_id", "payment_method_id"] as const) {
          if (entities[key]) problems.push({ path: [...base, key], message: "requires customer_id" });
        }
      }
      if (entities.items && entities.transaction_id) {
        problems.push({ path: [...base, "items"], message: "cannot be sent with transaction_id; send one of them" });
      }
    }
  }
  if ((type === "subscription_renewal" || type === "subscription_resume") && own) {
    const options = config[type]?.options;
    if (options?.dunning_exhausted_action && options.payment_outcome !== "failed") {
      problems.push({
        path: ["config", type, "options", "dunning_exhausted_action"],
        message: "only applies when payment_outcome is failed; send null",
      });
    }
  }
  return problems;
}

/** The problems as field errors (`config.subscription_creation.entities.address_id`). */
export function shapeFieldErrors(problems: ShapeProblem[]): { field: string; message: string }[] {
  return problems.map((p) => ({ field: fieldPath(p.path), message: p.message }));
}

export const createSimulationBody = z
  .strictObject({
    notification_setting_id: entityId("ntfset"),
    name: simulationName,
    type: simulationType,
    payload: simulationPayload.optional(),
    config: simulationConfigInput.optional(),
  })
  .superRefine((body, ctx) => {
    for (const problem of simulationShapeProblems(body.type, body.payload, body.config)) {
      ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
    }
  });
export type CreateSimulationInput = z.infer<typeof createSimulationBody>;

/** Every field optional; the rules between type, payload and config use the stored type too. */
export const updateSimulationBody = z.strictObject({
  notification_setting_id: entityId("ntfset").optional(),
  name: simulationName.optional(),
  status: statusEnum.optional(),
  type: simulationType.optional(),
  payload: simulationPayload.optional(),
  config: simulationConfigInput.optional(),
});
export type UpdateSimulationInput = z.infer<typeof updateSimulationBody>;

// ---------------------------------------------------------------------------------------------
// Path and query

export const simulationParams = z.object({ simulation_id: entityId("ntfsim") });
export const simulationRunParams = simulationParams.extend({ simulation_run_id: entityId("ntfsimrun") });
export const simulationEventParams = simulationRunParams.extend({ simulation_event_id: entityId("ntfsimevt") });

export const listSimulationsQuery = z.object({
  ...listQuery(["id"]),
  id: csv(entityId("ntfsim")).optional(),
  notification_setting_id: csv(entityId("ntfset")).optional(),
  status: csv(statusEnum).optional(),
});
export type ListSimulationsQuery = z.infer<typeof listSimulationsQuery>;

/** `include=events` adds the run's simulation events. */
export const simulationRunInclude = includeParam(["events"]);

export const getSimulationRunQuery = z.object({ include: simulationRunInclude.optional() });
export type GetSimulationRunQuery = z.infer<typeof getSimulationRunQuery>;

export const listSimulationRunsQuery = z.object({
  ...listQuery(["id"]),
  id: csv(entityId("ntfsimrun")).optional(),
  include: simulationRunInclude.optional(),
});
export type ListSimulationRunsQuery = z.infer<typeof listSimulationRunsQuery>;

export const listSimulationEventsQuery = z.object({
  ...listQuery(["id"]),
  id: csv(entityId("ntfsimevt")).optional(),
});
export type ListSimulationEventsQuery = z.infer<typeof listSimulationEventsQuery>;

// ---------------------------------------------------------------------------------------------
// Response shapes

export const SIMULATION_RUN_STATUSES = ["pending", "completed", "canceled"] as const;
export const SIMULATION_EVENT_STATUSES = ["pending", "success", "failed", "aborted"] as const;

export const simulationSchema = z.object({
  id: z.string(),
  notification_setting_id: z.string(),
  name: z.string(),
  type: z.string(),
  status: statusEnum,
  payload: z.record(z.string(), z.unknown()).nullable(),
  config: z.record(z.string(), z.unknown()).nullable(),
  last_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Simulation = z.infer<typeof simulationSchema>;

export const simulationEventSchema = z.object({
  id: z.string(),
  status: z.enum(SIMULATION_EVENT_STATUSES),
  event_type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  request: z.object({ body: z.string() }).nullable(),
  response: z.object({ body: z.string(), status_code: z.number().int() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SimulationEvent = z.infer<typeof simulationEventSchema>;

export const simulationRunSchema = z.object({
  id: z.string(),
  status: z.enum(SIMULATION_RUN_STATUSES),
  type: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Only with `include=events`. */
  events: z.array(simulationEventSchema).optional(),
});
export type SimulationRun = z.infer<typeof simulationRunSchema>;

/** An entry of `GET /simulation-types`: a single event type or a scenario (lib/simulator/simulation-types.ts). */
export const simulationTypeSchema = z.object({
  name: z.string(),
  label: z.string(),
  description: z.string(),
  group: z.string(),
  type: z.enum(["single_event", "scenario"]),
  events: z.array(z.string()),
});
