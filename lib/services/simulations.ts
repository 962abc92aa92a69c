/**
 * Simulations (webhook simulator): simulations, their runs and the simulated events of a run.
 *
 * Simulations are settings of the integration, not billing entities: their changes emit no events
 * (the catalogue has none for them), so they are written with plain SQL rather than the outbox
 * helpers. JSON columns (`payload`, `config`, an event's `payload`) are `json`, not `jsonb`, and are
 * written as `json` so that an entity's keys keep the API's order.
 */
import type pg from "pg";
import { ADDRESS } from "../db/entities/address.ts";
import { BUSINESS } from "../db/entities/business.ts";
import { CUSTOMER } from "../db/entities/customer.ts";
import { DISCOUNT } from "../db/entities/discount.ts";
import { PAYMENT_METHOD } from "../db/entities/payment-method.ts";
import { PRICE } from "../db/entities/price.ts";
import { PRODUCT } from "../db/entities/product.ts";
import { SUBSCRIPTION } from "../db/entities/subscription.ts";
import {
  type EntityTable,
  foreignKeyViolation,
  forgetTotals,
  getJson,
  includable,
  type JsonPage,
  jsonObject,
  listJson,
  Params,
  type Queryable,
  query,
  RawJson,
  sqlTransaction,
  storableJson,
  ts,
} from "../db/sql.ts";
import { ApiError, type FieldError, notFound } from "../errors.ts";
import {
  type Cast,
  EXAMPLE_IDS,
  exampleAddress,
  exampleBusiness,
  exampleCast,
  examplePayload,
  examplePaymentMethod,
  exampleProduct,
  type Json,
} from "../events/examples.ts";
import { queueSimulationRun } from "../events/queue.ts";
import { sendSimulationEvent, simulationDestinationProblem } from "../events/simulation-runner.ts";
import {
  CONFIG_KEYS,
  type CreationEntities,
  defaultScenarioConfig,
  isScenario,
  type ScenarioConfig,
  type ScenarioName,
  type SimulatedEvent,
  type SimulationConfig,
  scenarioEvents,
} from "../events/simulation-types.ts";
import { newId } from "../ids.ts";
import {
  type CreateSimulationInput,
  type GetSimulationRunQuery,
  type ListSimulationEventsQuery,
  type ListSimulationRunsQuery,
  type ListSimulationsQuery,
  type Simulation,
  type SimulationConfigInput,
  type SimulationEvent,
  type SimulationRun,
  shapeFieldErrors,
  simulationShapeProblems,
  type UpdateSimulationInput,
} from "../schemas/simulation.ts";
import { lockChangeable } from "./archived.ts";

// ---------------------------------------------------------------------------------------------
// API shapes

/** The simulation's API shape (spec: Simulation), in the spec's field order. */
export const SIMULATION: EntityTable<Simulation> = {
  table: "simulations",
  fields: [
    ["id", "t.id"],
    ["notification_setting_id", "t.notification_setting_id"],
    ["name", "t.name"],
    ["type", "t.type"],
    ["status", "t.status"],
    ["payload", "t.payload"],
    ["config", "t.config"],
    ["last_run_at", ts("t.last_run_at")],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};

/** The simulation event's API shape (spec: Simulation event). */
export const SIMULATION_EVENT: EntityTable<SimulationEvent> = {
  table: "simulation_events",
  fields: [
    ["id", "t.id"],
    ["status", "t.status"],
    ["event_type", "t.event_type"],
    ["payload", "t.payload"],
    ["request", "t.request"],
    ["response", "t.response"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};

/** The simulation run, as the API family has it: id, status, type, created_at, updated_at. */
export const SIMULATION_RUN: EntityTable<SimulationRun> = {
  table: "simulation_runs",
  fields: [
    ["id", "t.id"],
    ["status", "t.status"],
    ["type", "t.type"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};

/** With `include=events`: the run's simulation events, in the order they are sent. */
const runEntity = includable<SimulationRun, SimulationRun>(
  SIMULATION_RUN,
  "events",
  () => SIMULATION_EVENT,
  "t.simulation_run_id = parent.id",
  true,
);

function invalid(errors: FieldError[]): ApiError {
  return new ApiError("invalid_field", "Invalid request.", { errors });
}

/** A JSON column value: text cast with `::json` (key order kept), or SQL NULL. */
function jsonText(value: unknown): string | null {
  return value === null || value === undefined ? null : storableJson(value);
}

// ---------------------------------------------------------------------------------------------
// Config: defaults, permissions, references

/**
 * The stored `config` of a simulation of `type`: null for a single event; for a scenario every
 * scenario key, null but the simulation's own, whose entities and options are those sent with the
 * rest filled by the API family's defaults (null entities; options: see defaultScenarioConfig).
 * A failed payment whose dunning action is not sent ends in a canceled subscription, as there.
 */
export function normalizeConfig(type: string, input: SimulationConfigInput | undefined): SimulationConfig | null {
  if (!isScenario(type)) return null;
  const config = Object.fromEntries(CONFIG_KEYS.map((key) => [key, null])) as SimulationConfig;
  const defaults = defaultScenarioConfig(type) as unknown as { entities: Json; options: Json };
  const given = (input?.[type] ?? null) as { entities?: Json | null; options?: Json | null } | null;
  const entities: Json = { ...defaults.entities };
  for (const key of Object.keys(entities)) {
    const value = given?.entities?.[key];
    if (value !== undefined && value !== null) entities[key] = value;
  }
  const options: Json = { ...defaults.options };
  for (const key of Object.keys(options)) {
    const value = given?.options?.[key];
    if (value !== undefined && value !== null) options[key] = value;
  }
  if (
    (type === "subscription_renewal" || type === "subscription_resume") &&
    options.payment_outcome === "failed" &&
    given?.options?.dunning_exhausted_action === undefined
  ) {
    options.dunning_exhausted_action = "subscription_canceled";
  }
  (config as Record<string, unknown>)[type] = { entities, options };
  return config;
}

/**
 * The read permission each entity a config names needs. Payment methods are a customer's (read
 * with the customer), and items are catalogue prices.
 */
const ENTITY_PERMISSIONS: Record<string, string> = {
  customer_id: "customer.read",
  address_id: "address.read",
  business_id: "business.read",
  payment_method_id: "customer.read",
  discount_id: "discount.read",
  transaction_id: "transaction.read",
  items: "price.read",
  subscription_id: "subscription.read",
};

function ownConfig(type: string, config: SimulationConfig | null): ScenarioConfig | null {
  if (!config || !isScenario(type)) return null;
  return config[type] ?? null;
}

/**
 * The caller needs read permission for every entity the config names (the API family's rule: a
 * simulation must not carry data the key could not read): 403 naming each missing permission.
 */
export function assertEntityPermissions(type: string, config: SimulationConfig | null, permissions: Set<string>) {
  const own = ownConfig(type, config);
  if (!own) return;
  const missing: string[] = [];
  for (const [key, value] of Object.entries(own.entities)) {
    const permission = ENTITY_PERMISSIONS[key];
    if (value !== null && permission && !permissions.has(permission)) {
      missing.push(`config.${type}.entities.${key} needs the ${permission} permission`);
    }
  }
  if (missing.length > 0) {
    throw new ApiError("forbidden", `You aren't permitted to perform this request: ${missing.join("; ")}.`);
  }
}

/**
 * Problems with the entities a config names: each must exist, an address or business must be the
 * named customer's, items must be catalogue prices (each once) with at least one recurring.
 * A subscription ID is taken when well-formed: a stored subscription makes the story's cast
 * (resolveCast); any other is an example carrying that ID. Transactions and payment methods are
 * examples with the named IDs.
 */
async function entityProblems(type: string, config: SimulationConfig | null, on?: Queryable): Promise<FieldError[]> {
  const own = ownConfig(type, config);
  if (!own || type !== "subscription_creation") return [];
  const entities = own.entities as CreationEntities;
  const base = `config.${type}.entities`;
  const problems: FieldError[] = [];
  if (entities.customer_id) {
    const rows = await query("SELECT 1 FROM customers WHERE id = $1", [entities.customer_id], on);
    if (rows.length === 0) {
      problems.push({ field: `${base}.customer_id`, message: `no customer has the ID ${entities.customer_id}` });
    }
  }
  for (const [key, table, what] of [
    ["address_id", "addresses", "address"],
    ["business_id", "businesses", "business"],
  ] as const) {
    const id = entities[key];
    if (!id) continue;
    const [row] = await query<{ customer_id: string }>(`SELECT customer_id FROM ${table} WHERE id = $1`, [id], on);
    if (!row) problems.push({ field: `${base}.${key}`, message: `no ${what} has the ID ${id}` });
    else if (row.customer_id !== entities.customer_id) {
      problems.push({
        field: `${base}.${key}`,
        message: `${what} ${id} does not belong to customer ${entities.customer_id}`,
      });
    }
  }
  if (entities.discount_id) {
    const rows = await query("SELECT 1 FROM discounts WHERE id = $1", [entities.discount_id], on);
    if (rows.length === 0) {
      problems.push({ field: `${base}.discount_id`, message: `no discount has the ID ${entities.discount_id}` });
    }
  }
  if (entities.items) {
    const ids = entities.items.map((item) => item.price_id);
    const rows = await query<{ id: string; recurring: boolean }>(
      "SELECT id, billing_cycle_interval IS NOT NULL AS recurring FROM prices WHERE id = ANY($1)",
      [ids],
      on,
    );
    const found = new Map(rows.map((row) => [row.id, row.recurring]));
    const seen = new Set<string>();
    entities.items.forEach((item, i) => {
      const field = `${base}.items[${i}].price_id`;
      if (!found.has(item.price_id)) problems.push({ field, message: `no price has the ID ${item.price_id}` });
      else if (seen.has(item.price_id)) problems.push({ field, message: `price ${item.price_id} is listed twice` });
      seen.add(item.price_id);
    });
    if (problems.length === 0 && ![...found.values()].some(Boolean)) {
      problems.push({ field: `${base}.items`, message: "must include at least one recurring price" });
    }
  }
  return problems;
}

/** Why `id` cannot be a simulation's destination (it must exist, be a url and take simulations). */
async function settingProblems(id: string, on?: Queryable): Promise<FieldError[]> {
  const [row] = await query<{ setting_id: string; setting_type: string; traffic_source: string }>(
    "SELECT id AS setting_id, type AS setting_type, traffic_source FROM notification_settings WHERE id = $1",
    [id],
    on,
  );
  if (!row) return [{ field: "notification_setting_id", message: `no notification setting has the ID ${id}` }];
  // Whether it is active matters only when a run is sent, not when a simulation is saved.
  const problem = simulationDestinationProblem({ ...row, active: true });
  return problem ? [{ field: "notification_setting_id", message: problem }] : [];
}

// ---------------------------------------------------------------------------------------------
// Simulations

export async function getSimulation(id: string): Promise<RawJson<Simulation>> {
  const simulation = await getJson(SIMULATION, "t.id = $1", [id]);
  if (!simulation) throw notFound(id);
  return simulation;
}

/**
 * `permissions`: the caller's, for the entities `config` names. A single event keeps the payload as
 * sent (null: the example); a scenario's config is stored whole, with its defaults.
 */
export async function createSimulation(
  input: CreateSimulationInput,
  permissions: Set<string>,
): Promise<RawJson<Simulation>> {
  const config = normalizeConfig(input.type, input.config);
  assertEntityPermissions(input.type, config, permissions);
  const problems = [
    ...(await settingProblems(input.notification_setting_id)),
    ...(await entityProblems(input.type, config)),
  ];
  if (problems.length > 0) throw invalid(problems);
  const payload = isScenario(input.type) ? null : (input.payload ?? null);
  try {
    const [row] = await query<{ j: string }>(
      `WITH t AS (INSERT INTO simulations (id, notification_setting_id, name, type, payload, config)
                  VALUES ($1, $2, $3, $4, $5::json, $6::json) RETURNING *)
       SELECT ${jsonObject(SIMULATION)}::text AS j FROM t`,
      [newId("ntfsim"), input.notification_setting_id, input.name, input.type, jsonText(payload), jsonText(config)],
    );
    forgetTotals(SIMULATION.table);
    return new RawJson<Simulation>(row.j);
  } catch (error) {
    // The destination was deleted since it was checked.
    if (foreignKeyViolation(error)) throw invalid(await settingProblems(input.notification_setting_id));
    throw error;
  }
}

/**
 * Changes a simulation. Archived simulations cannot be changed except to unarchive them. When
 * `type` changes, a payload or config not sent starts again from the new type's defaults (a
 * payload of one event type does not fit another; a config of one scenario not another).
 */
export async function updateSimulation(
  id: string,
  input: UpdateSimulationInput,
  permissions: Set<string>,
): Promise<RawJson<Simulation>> {
  return sqlTransaction(async (client) => {
    const current = await lockChangeable<{ type: string }>(client, "simulations", id, input, "t.type");
    if (!current) throw notFound(id);
    const type = input.type ?? current.type;
    const typeChanged = type !== current.type;
    const shape = shapeFieldErrors(simulationShapeProblems(type, input.payload, input.config));
    if (shape.length > 0) throw invalid(shape);

    const columns: [string, unknown, string?][] = [];
    if (input.name !== undefined) columns.push(["name", input.name]);
    if (input.status !== undefined) columns.push(["status", input.status]);
    if (input.type !== undefined) columns.push(["type", input.type]);
    if (input.notification_setting_id !== undefined) {
      columns.push(["notification_setting_id", input.notification_setting_id]);
    }
    if (input.payload !== undefined || typeChanged) {
      const payload = isScenario(type) ? null : (input.payload ?? null);
      columns.push(["payload", jsonText(payload), "json"]);
    }
    let config: SimulationConfig | null = null;
    if (input.config !== undefined || typeChanged) {
      config = normalizeConfig(type, input.config ?? undefined);
      columns.push(["config", jsonText(config), "json"]);
    }
    if (input.config !== undefined) assertEntityPermissions(type, config, permissions);
    const problems = [
      ...(input.notification_setting_id !== undefined
        ? await settingProblems(input.notification_setting_id, client)
        : []),
      ...(input.config !== undefined ? await entityProblems(type, config, client) : []),
    ];
    if (problems.length > 0) throw invalid(problems);

    const params = new Params();
    params.values.push(id);
    const sets = ["updated_at = now()"];
    for (const [name, value, cast] of columns) sets.push(`${name} = ${params.add(value)}${cast ? `::${cast}` : ""}`);
    let rows: { j: string }[];
    try {
      rows = await query<{ j: string }>(
        `WITH t AS (UPDATE simulations t SET ${sets.join(", ")} WHERE t.id = $1 RETURNING t.*)
         SELECT ${jsonObject(SIMULATION)}::text AS j FROM t`,
        params.values,
        client,
      );
    } catch (error) {
      // The new destination was deleted since it was checked.
      if (foreignKeyViolation(error) && input.notification_setting_id !== undefined) {
        throw invalid([
          {
            field: "notification_setting_id",
            message: `no notification setting has the ID ${input.notification_setting_id}`,
          },
        ]);
      }
      throw error;
    }
    const [row] = rows;
    forgetTotals(SIMULATION.table);
    return new RawJson<Simulation>(row.j);
  });
}

/** Simulations of every status unless `status` asks for some (the API family filters none out). */
export function listSimulations(options: ListSimulationsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (options.status) filters.push(params.oneOf("t.status", options.status));
  if (options.id) filters.push(params.oneOf("t.id", options.id));
  if (options.notification_setting_id) {
    filters.push(params.oneOf("t.notification_setting_id", options.notification_setting_id));
  }
  return listJson(SIMULATION, {
    filters,
    params,
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
}

// ---------------------------------------------------------------------------------------------
// Payloads of a run

/** `over` laid onto `base`: objects merge key by key, anything else (arrays too) replaces. */
export function mergePayload(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = Object.hasOwn(out, key) ? out[key] : undefined;
    const bothObjects =
      current !== null &&
      typeof current === "object" &&
      !Array.isArray(current) &&
      value !== null &&
      typeof value === "object" &&
      !Array.isArray(value);
    // defineProperty: a `__proto__` key of the payload stays a plain field.
    Object.defineProperty(out, key, {
      value: bothObjects ? mergePayload(current as Json, value as Json) : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

async function entityJson(entity: EntityTable, where: string, values: unknown[], on: Queryable): Promise<Json | null> {
  const json = await getJson(entity, where, values, on);
  return json ? (json.parse() as Json) : null;
}

/**
 * The cast of a scenario run: each entity the config names, as the API returns it now (it was
 * checked to exist when the config was saved and the caller's permission to read it when the run
 * was created); every other part an example, linked to the named ones so that the payloads of the
 * run tell one story. Transactions, subscriptions and payment methods are examples with the named
 * IDs. Items name prices; their products are real when the caller can read products.
 */
async function resolveCast(
  type: ScenarioName,
  entities: Json,
  permissions: Set<string>,
  on: Queryable,
): Promise<{ cast: Cast; named: { business: boolean; discount: boolean } }> {
  const cast = exampleCast();
  if (type !== "subscription_creation") {
    // A plain subscription: no business, no discount.
    cast.business = null;
    cast.discount = null;
  }
  const id = (key: string) => (typeof entities[key] === "string" ? (entities[key] as string) : null);
  const customerId = id("customer_id");
  if (customerId) cast.customer = (await entityJson(CUSTOMER, "t.id = $1", [customerId], on)) ?? cast.customer;
  const owner = String(cast.customer.id);
  const addressId = id("address_id");
  cast.address =
    (addressId && (await entityJson(ADDRESS, "t.id = $1 AND t.customer_id = $2", [addressId, owner], on))) ||
    exampleAddress(owner);
  const businessId = id("business_id");
  if (businessId) {
    cast.business =
      (await entityJson(BUSINESS, "t.id = $1 AND t.customer_id = $2", [businessId, owner], on)) ??
      exampleBusiness(owner);
  } else if (cast.business) cast.business = exampleBusiness(owner);
  const discountId = id("discount_id");
  if (discountId) cast.discount = (await entityJson(DISCOUNT, "t.id = $1", [discountId], on)) ?? cast.discount;
  cast.paymentMethod = examplePaymentMethod(
    owner,
    String(cast.address.id),
    id("payment_method_id") ?? EXAMPLE_IDS.paymentMethod,
  );
  const items = entities.items as { price_id: string; quantity: number }[] | null | undefined;
  if (items) {
    const resolved: Cast["items"] = [];
    for (const item of items) {
      const price = await entityJson(PRICE, "t.id = $1", [item.price_id], on);
      if (!price) continue;
      const product = permissions.has("product.read")
        ? await entityJson(PRODUCT, "t.id = $1", [price.product_id], on)
        : null;
      resolved.push({
        price,
        product: product ?? { ...exampleProduct(), id: price.product_id },
        quantity: item.quantity,
      });
    }
    if (resolved.length > 0) cast.items = resolved;
  }
  cast.transactionId = id("transaction_id") ?? cast.transactionId;
  cast.subscriptionId = id("subscription_id") ?? cast.subscriptionId;
  const stored = cast.subscriptionId ? await subscriptionCast(cast, cast.subscriptionId, on) : false;
  return {
    cast,
    named: {
      business: businessId !== null || (stored && cast.business !== null),
      discount: discountId !== null || (stored && cast.discount !== null),
    },
  };
}

/**
 * When the config names a stored subscription, the story is about it: its customer, address,
 * business, discount, saved card and items (as the subscription has them) make the cast. Returns
 * whether it was found. The story's dates stay the scenario's (a simulation changes nothing).
 */
async function subscriptionCast(cast: Cast, subscriptionId: string, on: Queryable): Promise<boolean> {
  const sub = await entityJson(SUBSCRIPTION, "t.id = $1", [subscriptionId], on);
  if (!sub) return false;
  cast.customer = (await entityJson(CUSTOMER, "t.id = $1", [sub.customer_id], on)) ?? cast.customer;
  cast.address = (await entityJson(ADDRESS, "t.id = $1", [sub.address_id], on)) ?? cast.address;
  cast.business = sub.business_id ? await entityJson(BUSINESS, "t.id = $1", [sub.business_id], on) : null;
  const discount = sub.discount as { id: string } | null;
  cast.discount = discount ? await entityJson(DISCOUNT, "t.id = $1", [discount.id], on) : null;
  const [card] = await query<{ id: string }>(
    "SELECT payment_method_id AS id FROM subscriptions WHERE id = $1 AND payment_method_id IS NOT NULL",
    [subscriptionId],
    on,
  );
  if (card) cast.paymentMethod = (await entityJson(PAYMENT_METHOD, "t.id = $1", [card.id], on)) ?? cast.paymentMethod;
  const items = sub.items as { price: Json; product: Json; quantity: number }[];
  if (items.length > 0)
    cast.items = items.map((item) => ({ price: item.price, product: item.product, quantity: item.quantity }));
  return true;
}

/** The events a run of this simulation sends, in order, with their payloads. */
async function simulatedEvents(
  type: string,
  payload: Json | null,
  config: SimulationConfig | null,
  permissions: Set<string>,
  on: Queryable,
): Promise<SimulatedEvent[]> {
  if (!isScenario(type)) {
    // The example of the event's entity, with the parts the simulation's payload gives replaced.
    return [
      { event_type: type, payload: payload ? mergePayload(examplePayload(type), payload) : examplePayload(type) },
    ];
  }
  const own = ownConfig(type, config) ?? defaultScenarioConfig(type);
  const { cast, named } = await resolveCast(type, own.entities as unknown as Json, permissions, on);
  return scenarioEvents(type, own, cast, named);
}

// ---------------------------------------------------------------------------------------------
// Runs

/**
 * Creates a run of simulation `simulationId`: the run and its events (pending, in the order they
 * are sent, with their payloads), the simulation's `last_run_at`, and the job that sends them,
 * all in one transaction. The caller needs read permission for the entities the config names now
 * too (the payloads carry their data).
 */
export async function createSimulationRun(
  simulationId: string,
  permissions: Set<string>,
): Promise<RawJson<SimulationRun>> {
  return sqlTransaction(async (client) => {
    const [simulation] = await query<{
      type: string;
      status: string;
      payload: Json | null;
      config: SimulationConfig | null;
      setting_id: string | null;
      setting_type: string | null;
      traffic_source: string | null;
      active: boolean | null;
    }>(
      `SELECT s.type, s.status, s.payload, s.config,
              n.id AS setting_id, n.type AS setting_type, n.traffic_source, n.active
       FROM simulations s LEFT JOIN notification_settings n ON n.id = s.notification_setting_id
       WHERE s.id = $1 FOR UPDATE OF s`,
      [simulationId],
      client,
    );
    if (!simulation) throw notFound(simulationId);
    if (simulation.status === "archived") {
      throw new ApiError(
        "entity_archived",
        `${simulationId} is archived and cannot be run; set its status to active first.`,
      );
    }
    const problem = simulationDestinationProblem(simulation);
    if (problem) throw new ApiError("conflict", `Simulation ${simulationId} cannot be run: ${problem}`);
    assertEntityPermissions(simulation.type, simulation.config, permissions);
    const events = await simulatedEvents(simulation.type, simulation.payload, simulation.config, permissions, client);

    const runId = newId("ntfsimrun");
    await query(
      "INSERT INTO simulation_runs (id, simulation_id, status, type) VALUES ($1, $2, 'pending', $3)",
      [runId, simulationId, simulation.type],
      client,
    );
    await insertEvents(client, runId, events);
    await query("UPDATE simulations SET last_run_at = now() WHERE id = $1", [simulationId], client);
    await queueSimulationRun(client, runId);
    forgetTotals(SIMULATION_RUN.table);
    forgetTotals(SIMULATION_EVENT.table);
    const run = await getJson(SIMULATION_RUN, "t.id = $1", [runId], client);
    if (!run) throw new Error(`run ${runId} vanished in its own transaction`);
    return run;
  });
}

async function insertEvents(client: pg.PoolClient, runId: string, events: SimulatedEvent[]): Promise<void> {
  // IDs are monotonic, so ID order is the order the events are sent in.
  const ids = events.map(() => newId("ntfsimevt"));
  await query(
    `INSERT INTO simulation_events (id, simulation_run_id, status, event_type, payload)
     SELECT u.id, $2, 'pending', u.event_type, u.payload::json
     FROM unnest($1::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(id, event_type, payload, n)
     ORDER BY u.n`,
    [ids, runId, events.map((e) => e.event_type), events.map((e) => storableJson(e.payload))],
    client,
  );
}

/**
 * The 404 for a path under a simulation that named nothing: it names the first ID of the path
 * that does not exist (or does not belong to the one before it).
 */
async function notFoundUnder(simulationId: string, runId?: string, eventId?: string): Promise<never> {
  const [row] = await query<{ simulation: boolean; run: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM simulations WHERE id = $1) AS simulation,
            EXISTS (SELECT 1 FROM simulation_runs WHERE id = $2 AND simulation_id = $1) AS run`,
    [simulationId, runId ?? null],
  );
  if (!row?.simulation) throw notFound(simulationId);
  if (runId && !row.run) throw notFound(runId);
  throw notFound(eventId ?? runId ?? simulationId);
}

export async function getSimulationRun(
  simulationId: string,
  runId: string,
  options: GetSimulationRunQuery = {},
): Promise<RawJson<SimulationRun>> {
  const run = await getJson(runEntity(options.include), "t.id = $1 AND t.simulation_id = $2", [runId, simulationId]);
  return run ?? notFoundUnder(simulationId, runId);
}

export async function listSimulationRuns(simulationId: string, options: ListSimulationRunsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters = [`t.simulation_id = ${params.add(simulationId)}`];
  if (options.id) filters.push(params.oneOf("t.id", options.id));
  const page = await listJson(runEntity(options.include), {
    filters,
    params,
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
  // A page with runs proves the simulation exists; an empty one may be of an unknown simulation.
  if (page.lastId === null) {
    const [found] = await query("SELECT 1 FROM simulations WHERE id = $1", [simulationId]);
    if (!found) throw notFound(simulationId);
  }
  return page;
}

export async function listSimulationEvents(
  simulationId: string,
  runId: string,
  options: ListSimulationEventsQuery,
): Promise<JsonPage> {
  const params = new Params();
  const filters = [
    `t.simulation_run_id = ${params.add(runId)}`,
    `EXISTS (SELECT 1 FROM simulation_runs r WHERE r.id = t.simulation_run_id AND r.simulation_id = ${params.add(simulationId)})`,
  ];
  if (options.id) filters.push(params.oneOf("t.id", options.id));
  const page = await listJson(SIMULATION_EVENT, {
    filters,
    params,
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
  if (page.lastId === null) {
    const [found] = await query("SELECT 1 FROM simulation_runs WHERE id = $1 AND simulation_id = $2", [
      runId,
      simulationId,
    ]);
    if (!found) return notFoundUnder(simulationId, runId);
  }
  return page;
}

const EVENT_UNDER = `t.id = $1 AND t.simulation_run_id = $2
  AND EXISTS (SELECT 1 FROM simulation_runs r WHERE r.id = $2 AND r.simulation_id = $3)`;

export async function getSimulationEvent(
  simulationId: string,
  runId: string,
  eventId: string,
): Promise<RawJson<SimulationEvent>> {
  const event = await getJson(SIMULATION_EVENT, EVENT_UNDER, [eventId, runId, simulationId]);
  return event ?? notFoundUnder(simulationId, runId, eventId);
}

/**
 * Sends simulation event `eventId` again, now, and returns it with the new request and response.
 * 409 when the destination cannot receive simulated events any more.
 */
export async function replaySimulationEvent(
  simulationId: string,
  runId: string,
  eventId: string,
): Promise<RawJson<SimulationEvent>> {
  const exists = await query(`SELECT 1 FROM simulation_events t WHERE ${EVENT_UNDER}`, [eventId, runId, simulationId]);
  if (exists.length === 0) return notFoundUnder(simulationId, runId, eventId);
  const result = await sendSimulationEvent(eventId);
  if (result.status === "aborted") {
    throw new ApiError("conflict", `Simulation event ${eventId} cannot be replayed: ${result.reason}`);
  }
  return getSimulationEvent(simulationId, runId, eventId);
}
