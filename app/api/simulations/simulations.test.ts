/**
 * Simulations, through the real route handlers on a real database.
 *   GET/POST  /simulations
 *   GET/PATCH /simulations/{simulation_id}
 * Runs, their events and sending are in runs.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { call, errorFields, expectError, expectFieldError, nextPath, testKey } from "@/lib/dev/test/api";
import {
  expectAllowed,
  expectForbidden,
  expectMethodsNotAllowed,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { admin, ids, type Key, resource } from "@/lib/dev/test/resource";
import { createDestination, type Destination } from "@/lib/dev/test/simulation";
import { newId } from "@/lib/ids";
import { createAddressBody } from "@/lib/schemas/address";
import { createBusinessBody } from "@/lib/schemas/business";
import { createCustomerBody } from "@/lib/schemas/customer";
import { createDiscountBody } from "@/lib/schemas/discount";
import { createPriceBody } from "@/lib/schemas/price";
import { createProductBody } from "@/lib/schemas/product";
import { createAddress } from "@/lib/services/addresses";
import { createBusiness } from "@/lib/services/businesses";
import { createCustomer } from "@/lib/services/customers";
import { createDiscount } from "@/lib/services/discounts";
import { createPrice } from "@/lib/services/prices";
import { createProduct } from "@/lib/services/products";
import * as item from "./[simulation_id]/route";
import * as collection from "./route";

const FIELDS = [
  "id",
  "notification_setting_id",
  "name",
  "type",
  "status",
  "payload",
  "config",
  "last_run_at",
  "created_at",
  "updated_at",
];
const CONFIG_KEYS = [
  "subscription_cancellation",
  "subscription_creation",
  "subscription_pause",
  "subscription_renewal",
  "subscription_resume",
];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const CREATION_DEFAULTS = {
  entities: {
    customer_id: null,
    address_id: null,
    business_id: null,
    payment_method_id: null,
    discount_id: null,
    transaction_id: null,
    items: null,
  },
  options: {
    customer_simulated_as: "new",
    business_simulated_as: "not_provided",
    discount_simulated_as: "not_provided",
  },
};

const api = resource("/simulations", "simulation_id", collection, item);
const { create, update, list } = api;
const get = (id: string, key?: Key) => api.get(id, "", key);

let destination: Destination;
beforeAll(async () => {
  destination = await createDestination();
});

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { notification_setting_id: destination.id, name: "Signup flow", type: "subscription_creation", ...extra };
}

async function createOk(extra: Record<string, unknown> = {}, key?: Key): Promise<Record<string, any>> {
  const res = await create(body(extra), key);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function customer(email = `${newId("ctm")}@example.com`) {
  return (await createCustomer(createCustomerBody.parse({ email, name: "Real Person" }))).parse();
}

async function address(customerId: string) {
  return (
    await createAddress(customerId, createAddressBody.parse({ country_code: "DE", postal_code: "10115" }))
  ).parse();
}

async function business(customerId: string) {
  return (await createBusiness(customerId, createBusinessBody.parse({ name: "Real GmbH" }))).parse();
}

async function price(recurring = true) {
  const product = (await createProduct(createProductBody.parse({ name: "Plan", tax_category: "standard" }))).parse();
  return (
    await createPrice(
      createPriceBody.parse({
        product_id: product.id,
        description: recurring ? "Monthly" : "Setup fee",
        unit_price: { amount: "1500", currency_code: "EUR" },
        ...(recurring ? { billing_cycle: { interval: "month", frequency: 1 } } : {}),
      }),
    )
  ).parse();
}

describe("POST /simulations", () => {
  it("creates a scenario simulation: 201, the fields in order, the whole config with defaults", async () => {
    const res = await create(body());
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    const s = res.body.data;
    expect(Object.keys(s)).toEqual(FIELDS);
    expect(s.id).toMatch(/^ntfsim_[a-z0-9]{26}$/);
    expect(s).toMatchObject({
      notification_setting_id: destination.id,
      name: "Signup flow",
      type: "subscription_creation",
      status: "active",
      payload: null,
      last_run_at: null,
    });
    expect(Object.keys(s.config)).toEqual(CONFIG_KEYS);
    expect(s.config).toEqual({
      subscription_cancellation: null,
      subscription_creation: CREATION_DEFAULTS,
      subscription_pause: null,
      subscription_renewal: null,
      subscription_resume: null,
    });
    expect(Object.keys(s.config.subscription_creation.entities)).toEqual(Object.keys(CREATION_DEFAULTS.entities));
    expect(s.created_at).toMatch(TIMESTAMP);
    expect(s.updated_at).toBe(s.created_at);
  });

  it("fills the defaults of every scenario", async () => {
    const defaults: Record<string, unknown> = {
      subscription_renewal: {
        entities: { subscription_id: null },
        options: { payment_outcome: "success", dunning_exhausted_action: null },
      },
      subscription_resume: {
        entities: { subscription_id: null },
        options: { payment_outcome: "success", dunning_exhausted_action: null },
      },
      subscription_pause: {
        entities: { subscription_id: null },
        options: { effective_from: "immediately", has_past_due_transaction: false },
      },
      subscription_cancellation: {
        entities: { subscription_id: null },
        options: { effective_from: "immediately", has_past_due_transaction: false },
      },
    };
    for (const [type, expected] of Object.entries(defaults)) {
      const s = await createOk({ type });
      for (const key of CONFIG_KEYS) expect(s.config[key]).toEqual(key === type ? expected : null);
      // Options may be null: the default is taken.
      const nulls = await createOk({ type, config: { [type]: { entities: null, options: null } } });
      expect(nulls.config[type]).toEqual(expected);
    }
  });

  it("keeps the entities and options sent and fills the rest", async () => {
    const subscriptionId = newId("sub");
    const s = await createOk({
      type: "subscription_renewal",
      config: {
        subscription_renewal: {
          entities: { subscription_id: subscriptionId },
          options: { payment_outcome: "recovered_updated_payment_method" },
        },
      },
    });
    expect(s.config.subscription_renewal).toEqual({
      entities: { subscription_id: subscriptionId },
      options: { payment_outcome: "recovered_updated_payment_method", dunning_exhausted_action: null },
    });
    const paused = await createOk({
      type: "subscription_pause",
      config: {
        subscription_pause: { options: { effective_from: "next_billing_period", has_past_due_transaction: true } },
      },
    });
    expect(paused.config.subscription_pause.options).toEqual({
      effective_from: "next_billing_period",
      has_past_due_transaction: true,
    });
  });

  it("a failed payment's dunning action defaults to subscription_canceled; null is kept", async () => {
    const failed = await createOk({
      type: "subscription_resume",
      config: { subscription_resume: { options: { payment_outcome: "failed" } } },
    });
    expect(failed.config.subscription_resume.options).toEqual({
      payment_outcome: "failed",
      dunning_exhausted_action: "subscription_canceled",
    });
    const stays = await createOk({
      type: "subscription_renewal",
      config: { subscription_renewal: { options: { payment_outcome: "failed", dunning_exhausted_action: null } } },
    });
    expect(stays.config.subscription_renewal.options.dunning_exhausted_action).toBeNull();
    const paused = await createOk({
      type: "subscription_renewal",
      config: {
        subscription_renewal: {
          options: { payment_outcome: "failed", dunning_exhausted_action: "subscription_paused" },
        },
      },
    });
    expect(paused.config.subscription_renewal.options.dunning_exhausted_action).toBe("subscription_paused");
  });

  it("creates a single event simulation: config null, payload as sent (order kept) or null", async () => {
    const plain = await createOk({ type: "customer.created" });
    expect(plain).toMatchObject({ type: "customer.created", payload: null, config: null });
    const payload = { name: "Zed", email: "zed@example.com", custom_data: { b: 1, a: 2 } };
    const custom = await createOk({ type: "customer.created", payload, config: null });
    expect(custom.payload).toEqual(payload);
    expect(Object.keys(custom.payload)).toEqual(["name", "email", "custom_data"]);
    expect(Object.keys(custom.payload.custom_data)).toEqual(["b", "a"]);
    expect((await get(custom.id)).body.data).toEqual(custom);
  });

  it("accepts every event type of the catalogue and every scenario as type", async () => {
    for (const type of ["transaction.completed", "subscription.past_due", "payment_method.saved", "api_key.revoked"]) {
      expect((await create(body({ type }))).status).toBe(201);
    }
  });

  it("accepts a destination whose traffic_source is all", async () => {
    const all = await createDestination({ traffic_source: "all" });
    expect((await create(body({ notification_setting_id: all.id }))).status).toBe(201);
  });

  it.each([
    [{ name: "" }, "name"],
    [{ name: "   " }, "name"],
    [{ name: "n".repeat(201) }, "name"],
    [{ name: 5 }, "name"],
    [{ name: null }, "name"],
    [{ type: "subscription_party" }, "type"],
    [{ type: "customer.deleted" }, "type"],
    [{ type: null }, "type"],
    [{ type: 3 }, "type"],
    [{ notification_setting_id: "ntfset_123" }, "notification_setting_id"],
    [{ notification_setting_id: newId("ntf") }, "notification_setting_id"],
    [{ notification_setting_id: null }, "notification_setting_id"],
    [{ config: [] }, "config"],
    [{ config: "x" }, "config"],
    [{ payload: { a: 1 } }, "payload"],
    [{ config: { subscription_renewal: {} } }, "config.subscription_renewal"],
    [{ config: { subscription_creation: [] } }, "config.subscription_creation"],
    [{ config: { subscription_creation: { entities: "x" } } }, "config.subscription_creation.entities"],
    [{ config: { subscription_creation: { options: 1 } } }, "config.subscription_creation.options"],
    [
      { config: { subscription_creation: { entities: { customer_id: "ctm_1" } } } },
      "config.subscription_creation.entities.customer_id",
    ],
    [
      { config: { subscription_creation: { entities: { discount_id: newId("dsg") } } } },
      "config.subscription_creation.entities.discount_id",
    ],
    [
      { config: { subscription_creation: { entities: { payment_method_id: "pm_123" } } } },
      "config.subscription_creation.entities.payment_method_id",
    ],
    [
      { config: { subscription_creation: { entities: { transaction_id: "txn_x" } } } },
      "config.subscription_creation.entities.transaction_id",
    ],
    [{ config: { subscription_creation: { entities: { items: [] } } } }, "config.subscription_creation.entities.items"],
    [
      { config: { subscription_creation: { entities: { items: [{ price_id: newId("pri"), quantity: 0 }] } } } },
      "config.subscription_creation.entities.items[0].quantity",
    ],
    [
      { config: { subscription_creation: { entities: { items: [{ price_id: newId("pri"), quantity: 1.5 }] } } } },
      "config.subscription_creation.entities.items[0].quantity",
    ],
    [
      { config: { subscription_creation: { entities: { items: [{ price_id: "pri_1", quantity: 1 }] } } } },
      "config.subscription_creation.entities.items[0].price_id",
    ],
    [
      { config: { subscription_creation: { entities: { items: [{ quantity: 1 }] } } } },
      "config.subscription_creation.entities.items[0].price_id",
    ],
    [
      { config: { subscription_creation: { options: { customer_simulated_as: "old" } } } },
      "config.subscription_creation.options.customer_simulated_as",
    ],
    [
      { config: { subscription_creation: { options: { business_simulated_as: "prefilled" } } } },
      "config.subscription_creation.options.business_simulated_as",
    ],
    [
      { config: { subscription_creation: { options: { discount_simulated_as: "none" } } } },
      "config.subscription_creation.options.discount_simulated_as",
    ],
  ])("refuses %j with invalid_field on %s", async (extra, field) => {
    const res = await create(body(extra));
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toContain(field);
  });

  it.each([
    ["subscription_renewal", { options: { payment_outcome: "lost" } }, "options.payment_outcome"],
    [
      "subscription_renewal",
      { options: { dunning_exhausted_action: "subscription_deleted" } },
      "options.dunning_exhausted_action",
    ],
    ["subscription_resume", { entities: { subscription_id: newId("txn") } }, "entities.subscription_id"],
    ["subscription_pause", { options: { effective_from: "tomorrow" } }, "options.effective_from"],
    ["subscription_pause", { options: { has_past_due_transaction: "yes" } }, "options.has_past_due_transaction"],
    ["subscription_cancellation", { options: { payment_outcome: "success" } }, "options.payment_outcome"],
    ["subscription_cancellation", { entities: { customer_id: null } }, "entities.customer_id"],
    ["subscription_renewal", { extra: {} }, "extra"],
  ])("validates the %s config %j on %s", async (type, config, field) => {
    const res = await create(body({ type, config: { [type]: config } }));
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual([`config.${type}.${field}`]);
  });

  it("requires notification_setting_id, name and type", async () => {
    const res = await create({});
    expectError(res, 400, "invalid_field");
    expect(new Set(errorFields(res))).toEqual(new Set(["notification_setting_id", "name", "type"]));
  });

  it("refuses unknown fields and fields set by the service, at every level", async () => {
    for (const [extra, field] of [
      [{ colour: "red" }, "colour"],
      [{ status: "archived" }, "status"],
      [{ id: newId("ntfsim") }, "id"],
      [{ last_run_at: null }, "last_run_at"],
      [{ config: { subscription_trial: null } }, "config.subscription_trial"],
      [
        { config: { subscription_creation: { entities: { price_id: null } } } },
        "config.subscription_creation.entities.price_id",
      ],
      [
        { config: { subscription_creation: { options: { trial: true } } } },
        "config.subscription_creation.options.trial",
      ],
      [{ config: { subscription_creation: { other: {} } } }, "config.subscription_creation.other"],
      [
        { config: { subscription_creation: { entities: { items: [{ price_id: newId("pri"), quantity: 1, x: 1 }] } } } },
        "config.subscription_creation.entities.items[0].x",
      ],
    ] as const) {
      const res = await create(body(extra));
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual([field]);
    }
  });

  it("takes a payload only for a single event and a config only for a scenario", async () => {
    let res = await create(body({ type: "customer.created", config: { subscription_creation: null } }));
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["config"]);
    res = await create(body({ payload: { id: "x" } }));
    expect(errorFields(res)).toEqual(["payload"]);
    for (const payload of [[], "text", 5, true]) {
      res = await create(body({ type: "customer.created", payload }));
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["payload"]);
    }
    // Null is fine on both sides.
    expect((await create(body({ payload: null }))).status).toBe(201);
    expect((await create(body({ type: "customer.created", config: null }))).status).toBe(201);
  });

  it("takes only the config key of the simulation's own scenario", async () => {
    const res = await create(
      body({ config: { subscription_creation: {}, subscription_pause: {}, subscription_renewal: null } }),
    );
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["config.subscription_pause"]);
  });

  it("refuses an address, business or payment method without the customer", async () => {
    const res = await create(
      body({
        config: {
          subscription_creation: {
            entities: {
              address_id: newId("add"),
              business_id: newId("biz"),
              payment_method_id: `paymtd_${"a".repeat(26)}`,
            },
          },
        },
      }),
    );
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual([
      "config.subscription_creation.entities.address_id",
      "config.subscription_creation.entities.business_id",
      "config.subscription_creation.entities.payment_method_id",
    ]);
  });

  it("refuses items together with a transaction", async () => {
    const res = await create(
      body({
        config: {
          subscription_creation: {
            entities: { transaction_id: newId("txn"), items: [{ price_id: newId("pri"), quantity: 1 }] },
          },
        },
      }),
    );
    expectFieldError(res, "config.subscription_creation.entities.items");
    expect(errorFields(res)).toEqual(["config.subscription_creation.entities.items"]);
  });

  it("refuses a dunning action unless the payment fails", async () => {
    for (const outcome of ["success", "recovered_existing_payment_method", undefined]) {
      const res = await create(
        body({
          type: "subscription_renewal",
          config: {
            subscription_renewal: {
              options: { payment_outcome: outcome, dunning_exhausted_action: "subscription_paused" },
            },
          },
        }),
      );
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["config.subscription_renewal.options.dunning_exhausted_action"]);
    }
  });

  it("refuses a destination that does not exist, takes only platform traffic or is not a url", async () => {
    const platform = await createDestination({ traffic_source: "platform" });
    const email = await createDestination({ type: "email", destination: "ops@example.com" });
    for (const [id, words] of [
      [newId("ntfset"), "no notification setting"],
      [platform.id, "traffic_source platform"],
      [email.id, "not a url"],
    ] as const) {
      const res = await create(body({ notification_setting_id: id }));
      const error = expectFieldError(res, "notification_setting_id");
      expect(error.errors?.[0]?.message).toContain(words);
    }
  });

  it("takes a destination that is inactive (a run checks that)", async () => {
    const inactive = await createDestination({ active: false });
    expect((await create(body({ notification_setting_id: inactive.id }))).status).toBe(201);
  });

  it("uses real entities: they must exist, and addresses and businesses be the customer's", async () => {
    const c = await customer();
    const a = await address(c.id);
    const b = await business(c.id);
    const other = await customer();
    const otherAddress = await address(other.id);
    const p = await price();
    const oneOff = await price(false);
    const discount = (
      await createDiscount(createDiscountBody.parse({ description: "Ten off", type: "percentage", amount: "10" }))
    ).parse();
    const entities = {
      customer_id: c.id,
      address_id: a.id,
      business_id: b.id,
      payment_method_id: `paymtd_${"b".repeat(26)}`,
      discount_id: discount.id,
      transaction_id: null,
      items: [
        { price_id: p.id, quantity: 3 },
        { price_id: oneOff.id, quantity: 1 },
      ],
    };
    const s = await createOk({
      config: { subscription_creation: { entities, options: { business_simulated_as: "existing_details_prefilled" } } },
    });
    expect(s.config.subscription_creation.entities).toEqual(entities);
    expect(s.config.subscription_creation.options.business_simulated_as).toBe("existing_details_prefilled");

    const base = "config.subscription_creation.entities";
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customer_id: newId("ctm") }, `${base}.customer_id`, "no customer"],
      [{ customer_id: c.id, address_id: newId("add") }, `${base}.address_id`, "no address"],
      [{ customer_id: c.id, address_id: otherAddress.id }, `${base}.address_id`, "does not belong"],
      [{ customer_id: c.id, business_id: newId("biz") }, `${base}.business_id`, "no business"],
      [{ customer_id: other.id, business_id: b.id }, `${base}.business_id`, "does not belong"],
      [{ discount_id: newId("dsc") }, `${base}.discount_id`, "no discount"],
      [{ items: [{ price_id: newId("pri"), quantity: 1 }] }, `${base}.items[0].price_id`, "no price"],
      [{ items: [{ price_id: oneOff.id, quantity: 1 }] }, `${base}.items`, "recurring"],
      [
        {
          items: [
            { price_id: p.id, quantity: 1 },
            { price_id: p.id, quantity: 2 },
          ],
        },
        `${base}.items[1].price_id`,
        "twice",
      ],
    ];
    for (const [given, field, words] of cases) {
      const res = await create(body({ config: { subscription_creation: { entities: given } } }));
      const error = expectFieldError(res, field);
      expect(errorFields(res)).toEqual([field]);
      expect(error.errors?.[0]?.message).toContain(words);
    }
  });

  it("takes well-formed IDs of entities not stored yet (subscriptions, transactions, payment methods)", async () => {
    const subscriptionId = newId("sub");
    for (const type of [
      "subscription_renewal",
      "subscription_pause",
      "subscription_resume",
      "subscription_cancellation",
    ]) {
      const s = await createOk({ type, config: { [type]: { entities: { subscription_id: subscriptionId } } } });
      expect(s.config[type].entities.subscription_id).toBe(subscriptionId);
    }
    const transactionId = newId("txn");
    const s = await createOk({ config: { subscription_creation: { entities: { transaction_id: transactionId } } } });
    expect(s.config.subscription_creation.entities.transaction_id).toBe(transactionId);
  });

  it("refuses a body that is not JSON", async () => {
    const res = await call(collection.POST, "POST", "/simulations", {
      key: await admin(),
      rawBody: "{name:",
      headers: { "content-type": "application/json" },
    });
    expectError(res, 400, "bad_request");
  });
});

describe("GET /simulations/{simulation_id}", () => {
  it("returns the simulation", async () => {
    const s = await createOk();
    const res = await get(s.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["data", "meta"]);
    expect(res.body.data).toEqual(s);
  });

  it("is 404 for an unknown or malformed ID", async () => {
    for (const id of [newId("ntfsim"), "ntfsim_123", newId("ntfset"), newId("ntfsimrun")]) {
      const error = expectError(await get(id), 404, "not_found");
      expect(error.detail).toContain(id);
    }
  });
});

describe("PATCH /simulations/{simulation_id}", () => {
  it("renames and moves to another destination", async () => {
    const s = await createOk();
    const other = await createDestination({ traffic_source: "all" });
    const res = await update(s.id, { name: "Renamed", notification_setting_id: other.id });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toMatchObject({ id: s.id, name: "Renamed", notification_setting_id: other.id });
    expect(res.body.data.config).toEqual(s.config);
    expect(res.body.data.updated_at >= s.updated_at).toBe(true);
    expect((await get(s.id)).body.data).toEqual(res.body.data);
  });

  it("replaces the config of its scenario, with defaults for what is left out", async () => {
    const s = await createOk({
      config: { subscription_creation: { options: { customer_simulated_as: "existing_email_matched" } } },
    });
    const res = await update(s.id, {
      config: { subscription_creation: { options: { discount_simulated_as: "entered_by_customer" } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.config.subscription_creation.options).toEqual({
      customer_simulated_as: "new",
      business_simulated_as: "not_provided",
      discount_simulated_as: "entered_by_customer",
    });
    const reset = await update(s.id, { config: null });
    expect(reset.body.data.config.subscription_creation).toEqual(CREATION_DEFAULTS);
  });

  it("changes the type: payload and config start again from the new type", async () => {
    const s = await createOk({ type: "customer.created", payload: { name: "Kept?" } });
    const scenario = await update(s.id, { type: "subscription_pause" });
    expect(scenario.status).toBe(200);
    expect(scenario.body.data).toMatchObject({ type: "subscription_pause", payload: null });
    expect(scenario.body.data.config.subscription_pause.options.effective_from).toBe("immediately");
    const other = await update(s.id, {
      type: "subscription_renewal",
      config: { subscription_renewal: { options: { payment_outcome: "failed" } } },
    });
    expect(other.body.data.config.subscription_pause).toBeNull();
    expect(other.body.data.config.subscription_renewal.options.dunning_exhausted_action).toBe("subscription_canceled");
    const single = await update(s.id, { type: "transaction.completed", payload: { currency_code: "EUR" } });
    expect(single.body.data).toMatchObject({
      type: "transaction.completed",
      config: null,
      payload: { currency_code: "EUR" },
    });
    const cleared = await update(s.id, { payload: null });
    expect(cleared.body.data.payload).toBeNull();
  });

  it("applies the payload and config rules to the type it will have", async () => {
    const scenario = await createOk();
    let res = await update(scenario.id, { payload: { id: "x" } });
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual(["payload"]);
    res = await update(scenario.id, { config: { subscription_renewal: {} } });
    expect(errorFields(res)).toEqual(["config.subscription_renewal"]);
    res = await update(scenario.id, { type: "customer.updated", config: { subscription_creation: {} } });
    expect(errorFields(res)).toEqual(["config"]);
    const single = await createOk({ type: "customer.created" });
    res = await update(single.id, { config: { subscription_creation: {} } });
    expect(errorFields(res)).toEqual(["config"]);
    res = await update(single.id, { type: "subscription_creation", payload: { a: 1 } });
    expect(errorFields(res)).toEqual(["payload"]);
    expect((await get(scenario.id)).body.data).toEqual(scenario);
  });

  it("validates every field as on create", async () => {
    const s = await createOk();
    const platform = await createDestination({ traffic_source: "platform" });
    for (const [change, field] of [
      [{ name: "" }, "name"],
      [{ name: "x".repeat(201) }, "name"],
      [{ type: "nope" }, "type"],
      [{ status: "deleted" }, "status"],
      [{ status: null }, "status"],
      [{ notification_setting_id: "x" }, "notification_setting_id"],
      [{ notification_setting_id: newId("ntfset") }, "notification_setting_id"],
      [{ notification_setting_id: platform.id }, "notification_setting_id"],
      [
        { config: { subscription_creation: { entities: { customer_id: newId("ctm") } } } },
        "config.subscription_creation.entities.customer_id",
      ],
      [{ last_run_at: null }, "last_run_at"],
    ] as const) {
      const res = await update(s.id, change);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual([field]);
    }
    expect((await get(s.id)).body.data).toEqual(s);
  });

  it("archives; an archived simulation cannot be changed except to unarchive it", async () => {
    const s = await createOk({ name: "Keep" });
    const archived = await update(s.id, { status: "archived" });
    expect(archived.status).toBe(200);
    expect(archived.body.data.status).toBe("archived");
    const error = expectError(await update(s.id, { name: "Changed" }), 400, "entity_archived");
    expect(error.detail).toContain(s.id);
    expectError(await update(s.id, {}), 400, "entity_archived");
    const back = await update(s.id, { status: "active", name: "Back" });
    expect(back.body.data).toMatchObject({ status: "active", name: "Back" });
  });

  it("is 404 for an unknown or malformed ID", async () => {
    expectError(await update(newId("ntfsim"), { name: "x" }), 404, "not_found");
    expectError(await update("ntfsim_x", { name: "x" }), 404, "not_found");
  });
});

describe("GET /simulations", () => {
  it("lists simulations with the envelope and pagination meta", async () => {
    const s = await createOk();
    const res = await list(`?id=${s.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([s]);
    expect(res.body.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 1 });
    expect(res.body.meta.pagination.next).toContain(`after=${s.id}`);
  });

  it("filters by id, notification_setting_id and status; all statuses by default", async () => {
    const own = await createDestination();
    const a = await createOk({ notification_setting_id: own.id });
    const b = await createOk({ notification_setting_id: own.id, type: "customer.created" });
    await update(b.id, { status: "archived" });
    const c = await createOk();
    expect(ids(await list(`?notification_setting_id=${own.id}`))).toEqual([a.id, b.id]);
    expect(ids(await list(`?notification_setting_id=${own.id}&status=active`))).toEqual([a.id]);
    expect(ids(await list(`?notification_setting_id=${own.id}&status=archived`))).toEqual([b.id]);
    expect(ids(await list(`?id=${a.id},${c.id}`))).toEqual([a.id, c.id]);
    expect(ids(await list(`?notification_setting_id=${own.id},${destination.id}&id=${b.id},${c.id}`))).toEqual([
      b.id,
      c.id,
    ]);
    for (const [q, field] of [
      ["?status=deleted", "status"],
      ["?id=ntfsim_bad", "id"],
      ["?notification_setting_id=nope", "notification_setting_id"],
      ["?order_by=name[ASC]", "order_by"],
      ["?per_page=0", "per_page"],
    ]) {
      const res = await list(q);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]).toMatch(new RegExp(`^${field!.replace(/[[\]]/g, "\\$&")}`));
    }
  });

  it("orders by id either way and pages with per_page and after", async () => {
    const own = await createDestination();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createOk({ notification_setting_id: own.id, name: `S${i}` })).id);
    const q = `?notification_setting_id=${own.id}`;
    expect(ids(await list(`${q}&order_by=id[DESC]`))).toEqual([...made].reverse());
    const seen: string[] = [];
    let res = await list(`${q}&per_page=2`);
    for (let page = 0; page < 3; page++) {
      expect(res.body.meta.pagination).toMatchObject({ per_page: 2, estimated_total: 5, has_more: page < 2 });
      seen.push(...ids(res));
      if (page < 2)
        res = await call(collection.GET, "GET", nextPath(res.body.meta.pagination.next), { key: await admin() });
    }
    expect(seen).toEqual(made);
    expect((await list("?per_page=500")).body.meta.pagination.per_page).toBe(200);
  });
});

describe("permissions", () => {
  const WITHOUT = permissionsWithout("notification_simulation.");

  it("GET /simulations and GET /simulations/{id} need notification_simulation.read; write implies read", async () => {
    const s = await createOk();
    await expectPermission((key) => list("", key), {
      permission: "notification_simulation.read",
      denied: [WITHOUT, ["notification_setting.write"]],
      allowed: [["notification_simulation.read"], ["notification_simulation.write"]],
    });
    await expectPermission((key) => get(s.id, key), {
      permission: "notification_simulation.read",
      denied: [WITHOUT],
      allowed: [["notification_simulation.read"], ["notification_simulation.write"]],
    });
  });

  it("POST and PATCH need notification_simulation.write", async () => {
    const before = await query<{ n: number }>("SELECT count(*)::int AS n FROM simulations");
    await expectForbidden(
      (key) => create(body(), key),
      [WITHOUT, ["notification_simulation.read"]],
      "notification_simulation.write",
    );
    expect(await query<{ n: number }>("SELECT count(*)::int AS n FROM simulations")).toEqual(before);
    await expectAllowed((key) => create(body(), key), [["notification_simulation.write"]], 201);
    const s = await createOk({ name: "Before" });
    await expectForbidden(
      (key) => update(s.id, { name: "After" }, key),
      [WITHOUT, ["notification_simulation.read"]],
      "notification_simulation.write",
    );
    expect((await get(s.id)).body.data.name).toBe("Before");
  });

  it("needs read permission for every entity config.entities names (403 naming it)", async () => {
    const c = await customer();
    const a = await address(c.id);
    const b = await business(c.id);
    const p = await price();
    const discount = (
      await createDiscount(createDiscountBody.parse({ description: "Five off", type: "percentage", amount: "5" }))
    ).parse();
    const creation = (entities: Record<string, unknown>) => body({ config: { subscription_creation: { entities } } });
    const cases: [Record<string, unknown>, string][] = [
      [creation({ customer_id: c.id }), "customer.read"],
      [creation({ customer_id: c.id, address_id: a.id }), "address.read"],
      [creation({ customer_id: c.id, business_id: b.id }), "business.read"],
      [creation({ discount_id: discount.id }), "discount.read"],
      [creation({ transaction_id: newId("txn") }), "transaction.read"],
      [creation({ items: [{ price_id: p.id, quantity: 1 }] }), "price.read"],
      [
        body({
          type: "subscription_renewal",
          config: { subscription_renewal: { entities: { subscription_id: newId("sub") } } },
        }),
        "subscription.read",
      ],
    ];
    const minimal = ["notification_simulation.write", "customer.read"];
    for (const [request, permission] of cases) {
      const key = await testKey(minimal.filter((p) => p !== permission));
      const error = expectError(await create(request, key), 403, "forbidden");
      expect(error.detail).toContain(permission);
      expect(error.detail).toContain("config.");
      const allowed = await testKey([...minimal, permission]);
      const res = await create(request, allowed);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // The permission is checked before the entity is looked up: no hint whether it exists.
    const key = await testKey(["notification_simulation.write"]);
    expectError(await create(creation({ customer_id: newId("ctm") }), key), 403, "forbidden");
    // PATCH applies the same rule to the config it sends.
    const s = await createOk();
    const error = expectError(
      await update(s.id, { config: { subscription_creation: { entities: { customer_id: c.id } } } }, key),
      403,
      "forbidden",
    );
    expect(error.detail).toContain("customer.read");
    expect((await update(s.id, { name: "Only a name" }, key)).status).toBe(200);
  });

  it("refuses a request without a key (401) and checks the permission before the lookup (403, not 404)", async () => {
    expectError(await call(collection.GET, "GET", "/simulations", { key: null }), 401, "invalid_token");
    expectError(await create(body(), null), 401, "invalid_token");
    expectError(await get(newId("ntfsim"), null), 401, "invalid_token");
    expectError(await update(newId("ntfsim"), { name: "x" }, null), 401, "invalid_token");
    expectError(await get(newId("ntfsim"), await testKey(["product.read"])), 403, "forbidden");
  });
});

describe("methods", () => {
  it("answers 405 for methods the paths do not have", async () => {
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/simulations");
    await expectMethodsNotAllowed(item, ["PUT", "POST", "DELETE"], `/simulations/${newId("ntfsim")}`);
  });
});
