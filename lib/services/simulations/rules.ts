/**
 * The field rules of a simulation (webhook simulator): its config's defaults, the permissions the
 * entities it names need, and the checks of those entities and of its destination.
 *
 * Simulations are settings of the integration, not billing entities: their changes emit no events
 * (the catalogue has none for them), so they are written with plain SQL rather than the outbox
 * helpers. JSON columns (`payload`, `config`, an event's `payload`) are `json`, not `jsonb`, and are
 * written as `json` so that an entity's keys keep the API's order.
 */
import { type Queryable, query, storableJson } from "../../db/sql.ts";
import { ApiError, type FieldError } from "../../errors.ts";
import type { SimulationConfigInput } from "../../schemas/simulation.ts";
import type { Json } from "../../simulator/examples/common.ts";
import { simulationDestinationProblem } from "../../simulator/runner.ts";
import {
  CONFIG_KEYS,
  type CreationEntities,
  defaultScenarioConfig,
  isScenario,
  type ScenarioConfig,
  type SimulationConfig,
} from "../../simulator/scenarios.ts";

/** A JSON column value: text cast with `::json` (key order kept), or SQL NULL. */
export function jsonText(value: unknown): string | null {
  return value === null || value === undefined ? null : storableJson(value);
}

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

export function ownConfig(type: string, config: SimulationConfig | null): ScenarioConfig | null {
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
export async function entityProblems(
  type: string,
  config: SimulationConfig | null,
  on?: Queryable,
): Promise<FieldError[]> {
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
export async function settingProblems(id: string, on?: Queryable): Promise<FieldError[]> {
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
