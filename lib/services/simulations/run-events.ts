/**
 * The events a run of a simulation sends, with their payloads: a single event's example (with the
 * simulation's payload laid over it), or a scenario's story told with the entities its config names.
 */

import { ADDRESS } from "../../db/entities/address.ts";
import { BUSINESS } from "../../db/entities/business.ts";
import { CUSTOMER } from "../../db/entities/customer.ts";
import { DISCOUNT } from "../../db/entities/discount.ts";
import { PAYMENT_METHOD } from "../../db/entities/payment-method.ts";
import { PRICE } from "../../db/entities/price.ts";
import { PRODUCT } from "../../db/entities/product.ts";
import { SUBSCRIPTION } from "../../db/entities/subscription.ts";
import { type EntityTable, getJson, type Queryable, query } from "../../db/sql.ts";
import { type Cast, exampleCast } from "../../simulator/examples/cast.ts";
import { EXAMPLE_IDS, type Json } from "../../simulator/examples/common.ts";
import {
  exampleAddress,
  exampleBusiness,
  examplePaymentMethod,
  exampleProduct,
} from "../../simulator/examples/entities.ts";
import { examplePayload } from "../../simulator/examples/payloads.ts";
import {
  defaultScenarioConfig,
  isScenario,
  type ScenarioName,
  type SimulatedEvent,
  type SimulationConfig,
  scenarioEvents,
} from "../../simulator/scenarios.ts";
import { ownConfig } from "./rules.ts";

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
export async function simulatedEvents(
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
