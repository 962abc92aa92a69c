/** Every price endpoint, through the real route handlers on a real database. */
import { describe, expect, it } from "vitest";
import { CURRENCY_CODES } from "@/lib/billing/currencies";
import { db } from "@/lib/db/connection";
import { type ApiResult, call, errorFields, expectError, testKey } from "@/lib/dev/test/api";
import {
  events,
  expectAllowed,
  expectForbidden,
  expectMethodsNotAllowed,
  expectOnlyEvent,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { admin, ids, resource } from "@/lib/dev/test/resource";
import { newId } from "@/lib/ids";
import { COUNTRY_CODES } from "@/lib/schemas/countries";
import { createPriceObject } from "@/lib/schemas/price";
import * as productItem from "../products/[product_id]/route";
import * as productCollection from "../products/route";
import * as item from "./[price_id]/route";
import * as collection from "./route";

const FIELDS = [
  "id",
  "product_id",
  "type",
  "description",
  "name",
  "tax_mode",
  "billing_cycle",
  "trial_period",
  "unit_price",
  "unit_price_overrides",
  "custom_data",
  "status",
  "quantity",
  "import_meta",
  "created_at",
  "updated_at",
];
const PRODUCT_FIELDS = [
  "id",
  "name",
  "description",
  "type",
  "tax_category",
  "image_url",
  "custom_data",
  "status",
  "import_meta",
  "created_at",
  "updated_at",
];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const USD_10 = { amount: "1000", currency_code: "USD" };
const MONTHLY = { interval: "month", frequency: 1 };

async function createProduct(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await call(productCollection.POST, "POST", "/products", {
    key: await admin(),
    body: { name: "A product", tax_category: "standard", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function updateProduct(id: string, body: unknown): Promise<ApiResult> {
  return call(productItem.PATCH, "PATCH", `/products/${id}`, { key: await admin(), body, params: { product_id: id } });
}

let sharedProduct: string | undefined;
async function product(): Promise<string> {
  sharedProduct ??= (await createProduct({ name: "Shared product" })).id as string;
  return sharedProduct;
}

const { create, get, update, list, follow, walk } = resource("/prices", "price_id", collection, item);

/** A valid create body for the shared product, with `body` over it. */
async function valid(body: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return { product_id: await product(), description: "Monthly plan", unit_price: USD_10, ...body };
}

async function createOk(body: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await create(await valid(body));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe("POST /prices", () => {
  it("creates a one-time price: 201, the spec's fields in the spec's order, with defaults", async () => {
    const productId = await product();
    const res = await create({ product_id: productId, description: "One-time", unit_price: USD_10 });
    expect(res.status).toBe(201);
    const p = res.body.data;
    expect(Object.keys(p)).toEqual(FIELDS);
    expect(p.id).toMatch(/^pri_[a-z0-9]{26}$/);
    expect(p).toMatchObject({
      product_id: productId,
      type: "standard",
      description: "One-time",
      name: null,
      tax_mode: "account_setting",
      billing_cycle: null,
      trial_period: null,
      unit_price: { amount: "1000", currency_code: "USD" },
      unit_price_overrides: [],
      custom_data: null,
      status: "active",
      quantity: { minimum: 1, maximum: 100 },
      import_meta: null,
    });
    expect(Object.keys(p.unit_price)).toEqual(["amount", "currency_code"]);
    expect(Object.keys(p.quantity)).toEqual(["minimum", "maximum"]);
    expect(p.created_at).toMatch(RFC3339);
    expect(p.updated_at).toBe(p.created_at);
    expect(Object.keys(res.body.meta)).toEqual(["request_id"]);
  });

  it("stores every field given, and GET returns the same entity", async () => {
    const body = {
      description: "Pro, yearly, with a trial",
      name: "Yearly",
      type: "custom",
      billing_cycle: { interval: "year", frequency: 1 },
      trial_period: { interval: "day", frequency: 14 },
      tax_mode: "internal",
      unit_price: { amount: "24000", currency_code: "USD" },
      unit_price_overrides: [
        { country_codes: ["DE", "FR"], unit_price: { amount: "22000", currency_code: "EUR" } },
        { country_codes: ["GB"], unit_price: { amount: "19000", currency_code: "GBP" } },
      ],
      quantity: { minimum: 2, maximum: 50 },
      custom_data: { plan: "pro" },
    };
    const res = await create(await valid(body));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject(body);
    // The nested objects keep the API's key order.
    expect(Object.keys(res.body.data.billing_cycle)).toEqual(["interval", "frequency"]);
    expect(Object.keys(res.body.data.trial_period)).toEqual(["interval", "frequency"]);
    for (const o of res.body.data.unit_price_overrides) {
      expect(Object.keys(o)).toEqual(["country_codes", "unit_price"]);
      expect(Object.keys(o.unit_price)).toEqual(["amount", "currency_code"]);
    }
    const again = await get(res.body.data.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
  });

  it("takes amounts in the currency's minor unit, as strings, without leading zeros", async () => {
    const jpy = await createOk({ unit_price: { amount: "500", currency_code: "JPY" } });
    expect(jpy.unit_price).toEqual({ amount: "500", currency_code: "JPY" });
    const padded = await createOk({
      unit_price: { amount: "000100", currency_code: "USD" },
      unit_price_overrides: [{ country_codes: ["JP"], unit_price: { amount: "0015", currency_code: "JPY" } }],
    });
    expect(padded.unit_price.amount).toBe("100");
    expect(padded.unit_price_overrides[0].unit_price.amount).toBe("15");
    const free = await createOk({ unit_price: { amount: "0", currency_code: "EUR" } });
    expect(free.unit_price.amount).toBe("0");
  });

  it.each(CURRENCY_CODES)("accepts the currency %s", async (currency) => {
    const p = await createOk({ unit_price: { amount: "100", currency_code: currency } });
    expect(p.unit_price.currency_code).toBe(currency);
  });

  it.each(["account_setting", "external", "internal"])("accepts the tax mode %s", async (mode) => {
    expect((await createOk({ tax_mode: mode })).tax_mode).toBe(mode);
  });

  it.each(["day", "week", "month", "year"])("accepts a billing cycle and trial in %ss", async (interval) => {
    const p = await createOk({ billing_cycle: { interval, frequency: 3 }, trial_period: { interval, frequency: 2 } });
    expect(p.billing_cycle).toEqual({ interval, frequency: 3 });
    expect(p.trial_period).toEqual({ interval, frequency: 2 });
  });

  describe("product", () => {
    it("refuses an unknown product as invalid_field on product_id", async () => {
      const missing = newId("pro");
      const res = await create(await valid({ product_id: missing }));
      const error = expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["product_id"]);
      expect(error.errors?.[0]?.message).toContain(missing);
    });

    it.each([
      ["malformed", "pro_nope"],
      ["of another entity", newId("pri")],
      ["missing", undefined],
      ["null", null],
    ])("refuses a product_id that is %s", async (_name, productId) => {
      const res = await create(await valid({ product_id: productId }));
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["product_id"]);
    });

    it("refuses a price of an archived product with 400 entity_archived naming the product, and creates nothing", async () => {
      const archived = await createProduct();
      expect((await updateProduct(archived.id, { status: "archived" })).status).toBe(200);
      const events = await db().event.count();
      const res = await create(await valid({ product_id: archived.id }));
      const error = expectError(res, 400, "entity_archived");
      expect(error.detail).toContain(archived.id);
      expect(await db().price.count({ where: { productId: archived.id } })).toBe(0);
      expect(await db().event.count()).toBe(events);
      // Once unarchived, the product takes prices again.
      await updateProduct(archived.id, { status: "active" });
      expect((await create(await valid({ product_id: archived.id }))).status).toBe(201);
    });
  });

  describe("validation", () => {
    async function refused(body: Record<string, unknown>, fields: string[]): Promise<ApiResult> {
      const before = await db().price.count();
      const res = await create(await valid(body));
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(fields);
      expect(await db().price.count()).toBe(before);
      return res;
    }

    it("accepts a description of 2 to 500 characters (the family's limits) and refuses 1 or 501", async () => {
      expect((await createOk({ description: "d".repeat(500) })).description).toHaveLength(500);
      expect((await createOk({ description: "dd" })).description).toBe("dd");
      await refused({ description: "d" }, ["description"]);
      await refused({ description: "d".repeat(501) }, ["description"]);
    });

    it.each([
      ["empty", ""],
      ["only whitespace", "   "],
      ["null", null],
      ["missing", undefined],
    ])("refuses a description that is %s", async (_name, description) => {
      await refused({ description }, ["description"]);
    });

    it("accepts a name of 150 characters and refuses 151; null is fine, empty is not", async () => {
      expect((await createOk({ name: "n".repeat(150) })).name).toHaveLength(150);
      expect((await createOk({ name: null })).name).toBeNull();
      await refused({ name: "n".repeat(151) }, ["name"]);
      await refused({ name: "" }, ["name"]);
    });

    it("accepts type standard and custom only", async () => {
      expect((await createOk({ type: "custom" })).type).toBe("custom");
      await refused({ type: "recurring" }, ["type"]);
    });

    it("refuses an unknown tax_mode", async () => {
      await refused({ tax_mode: "country" }, ["tax_mode"]);
      await refused({ tax_mode: null }, ["tax_mode"]);
    });

    describe("billing_cycle and trial_period", () => {
      it("accepts a frequency of 1 and of 999, and refuses 0 and 1000", async () => {
        for (const frequency of [1, 999]) {
          const p = await createOk({
            billing_cycle: { interval: "day", frequency },
            trial_period: { interval: "day", frequency },
          });
          expect(p.billing_cycle.frequency).toBe(frequency);
          expect(p.trial_period.frequency).toBe(frequency);
        }
        for (const frequency of [0, 1000, -1]) {
          await refused({ billing_cycle: { interval: "day", frequency } }, ["billing_cycle.frequency"]);
          await refused({ billing_cycle: MONTHLY, trial_period: { interval: "day", frequency } }, [
            "trial_period.frequency",
          ]);
        }
      });

      it.each([
        ["billing_cycle.frequency", { interval: "month", frequency: 1.5 }],
        ["billing_cycle.frequency", { interval: "month", frequency: "1" }],
        ["billing_cycle.frequency", { interval: "month" }],
        ["billing_cycle.interval", { interval: "quarter", frequency: 1 }],
        ["billing_cycle.interval", { frequency: 1 }],
        ["billing_cycle.extra", { interval: "month", frequency: 1, extra: true }],
        ["billing_cycle", "monthly"],
        ["billing_cycle", 30],
      ])("refuses an invalid billing_cycle (%s)", async (field, cycle) => {
        await refused({ billing_cycle: cycle }, [field]);
      });

      it("accepts null for both (a one-time price)", async () => {
        const p = await createOk({ billing_cycle: null, trial_period: null });
        expect(p.billing_cycle).toBeNull();
        expect(p.trial_period).toBeNull();
      });

      it("refuses a trial_period without a billing_cycle", async () => {
        const res = await refused({ trial_period: { interval: "day", frequency: 7 } }, ["trial_period"]);
        expect(res.body.error.errors[0].message).toContain("billing_cycle");
        await refused({ billing_cycle: null, trial_period: { interval: "day", frequency: 7 } }, ["trial_period"]);
      });
    });

    describe("unit_price", () => {
      it("accepts an amount of 18 digits and refuses 19", async () => {
        const big = "9".repeat(18);
        expect((await createOk({ unit_price: { amount: big, currency_code: "USD" } })).unit_price.amount).toBe(big);
        await refused({ unit_price: { amount: "1".repeat(19), currency_code: "USD" } }, ["unit_price.amount"]);
      });

      it.each([
        ["negative", "-100"],
        ["a decimal", "10.50"],
        ["empty", ""],
        ["spaced", " 100"],
        ["exponent", "1e5"],
        ["a number, not a string", 1000],
        ["null", null],
      ])("refuses an amount that is %s", async (_name, amount) => {
        await refused({ unit_price: { amount, currency_code: "USD" } }, ["unit_price.amount"]);
      });

      it.each(["XXX", "usd", "US", "", null])("refuses the currency %j", async (currency) => {
        await refused({ unit_price: { amount: "100", currency_code: currency } }, ["unit_price.currency_code"]);
      });

      it("requires unit_price, as an object", async () => {
        await refused({ unit_price: undefined }, ["unit_price"]);
        await refused({ unit_price: "1000 USD" }, ["unit_price"]);
        await refused({ unit_price: null }, ["unit_price"]);
      });
    });

    describe("unit_price_overrides", () => {
      const override = (codes: string[], amount = "900", currency = "EUR") => ({
        country_codes: codes,
        unit_price: { amount, currency_code: currency },
      });

      it("accepts one override per country, for every country", async () => {
        const all = COUNTRY_CODES.map((code) => override([code]));
        expect(all.length).toBeLessThanOrEqual(250);
        const p = await createOk({ unit_price_overrides: all });
        expect(p.unit_price_overrides).toHaveLength(all.length);
        expect(p.unit_price_overrides.map((o: { country_codes: string[] }) => o.country_codes[0])).toEqual([
          ...COUNTRY_CODES,
        ]);
      });

      it("refuses more than 250 overrides", async () => {
        const many = Array.from({ length: 251 }, (_, i) => override([COUNTRY_CODES[i % COUNTRY_CODES.length]!]));
        const res = await create(await valid({ unit_price_overrides: many }));
        expectError(res, 400, "invalid_field");
        expect(errorFields(res)).toContain("unit_price_overrides");
      });

      it("refuses a country that is in two overrides, naming the second occurrence", async () => {
        const res = await refused({ unit_price_overrides: [override(["US", "CA"]), override(["US"], "100", "USD")] }, [
          "unit_price_overrides[1].country_codes[0]",
        ]);
        expect(res.body.error.errors[0].message).toContain("unit_price_overrides[0].country_codes[0]");
        await refused({ unit_price_overrides: [override(["DE"]), override(["FR", "IT", "DE"])] }, [
          "unit_price_overrides[1].country_codes[2]",
        ]);
      });

      it("refuses a country twice in one override", async () => {
        await refused({ unit_price_overrides: [override(["FR", "FR"])] }, ["unit_price_overrides[0].country_codes[1]"]);
      });

      it.each([
        ["unit_price_overrides[0].country_codes", override([])],
        ["unit_price_overrides[0].country_codes[1]", override(["US", "XX"])],
        ["unit_price_overrides[0].country_codes[0]", override(["us"])],
        ["unit_price_overrides[0].unit_price.amount", override(["US"], "-1")],
        ["unit_price_overrides[0].unit_price.amount", override(["US"], "1".repeat(19))],
        ["unit_price_overrides[0].unit_price.currency_code", override(["US"], "1", "ABC")],
        ["unit_price_overrides[0].country_codes", { unit_price: USD_10 }],
        ["unit_price_overrides[0].unit_price", { country_codes: ["US"] }],
        ["unit_price_overrides[0].extra", { ...override(["US"]), extra: 1 }],
      ])("refuses an invalid override (%s)", async (field, entry) => {
        await refused({ unit_price_overrides: [entry] }, [field]);
      });

      it("refuses overrides that are not an array", async () => {
        await refused({ unit_price_overrides: { US: USD_10 } }, ["unit_price_overrides"]);
        await refused({ unit_price_overrides: null }, ["unit_price_overrides"]);
      });
    });

    describe("quantity", () => {
      it("accepts 1 to 999,999,999, and minimum equal to maximum", async () => {
        const wide = await createOk({ quantity: { minimum: 1, maximum: 999_999_999 } });
        expect(wide.quantity).toEqual({ minimum: 1, maximum: 999_999_999 });
        const top = await createOk({ quantity: { minimum: 999_999_999, maximum: 999_999_999 } });
        expect(top.quantity).toEqual({ minimum: 999_999_999, maximum: 999_999_999 });
        const one = await createOk({ quantity: { minimum: 1, maximum: 1 } });
        expect(one.quantity).toEqual({ minimum: 1, maximum: 1 });
      });

      it.each([
        ["quantity.minimum", { minimum: 0, maximum: 10 }],
        ["quantity.maximum", { minimum: 1, maximum: 1_000_000_000 }],
        ["quantity.maximum", { minimum: 1, maximum: 0 }],
        ["quantity.minimum", { minimum: 1.5, maximum: 10 }],
        ["quantity.minimum", { minimum: 11, maximum: 10 }],
        ["quantity.maximum", { minimum: 1 }],
        ["quantity.minimum", { maximum: 10 }],
        ["quantity", null],
        ["quantity", 5],
      ])("refuses an invalid quantity (%s)", async (field, quantity) => {
        await refused({ quantity }, [field]);
      });

      it("names minimum when it exceeds maximum", async () => {
        const res = await refused({ quantity: { minimum: 5, maximum: 4 } }, ["quantity.minimum"]);
        expect(res.body.error.errors[0].message).toContain("maximum");
      });
    });

    it.each([
      ["an array", []],
      ["a string", "x"],
    ])("refuses custom_data that is %s", async (_name, customData) => {
      await refused({ custom_data: customData }, ["custom_data"]);
    });

    it("refuses an unknown field and fields set by the service", async () => {
      for (const extra of [{ colour: "red" }, { id: newId("pri") }, { status: "active" }, { product: {} }]) {
        await refused(extra, Object.keys(extra));
      }
    });

    it("reports every invalid field at once", async () => {
      const res = await create({
        product_id: "nope",
        description: "",
        unit_price: { amount: "1.5", currency_code: "XYZ" },
        quantity: { minimum: 0, maximum: 5 },
      });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res).sort()).toEqual([
        "description",
        "product_id",
        "quantity.minimum",
        "unit_price.amount",
        "unit_price.currency_code",
      ]);
    });
  });

  it("the body schema serves forms: the unrefined object can be picked and made partial", () => {
    expect(createPriceObject.pick({ description: true }).safeParse({ description: "xx" }).success).toBe(true);
    expect(createPriceObject.partial().safeParse({}).success).toBe(true);
  });
});

describe("GET /prices/{price_id}", () => {
  it("returns the price", async () => {
    const p = await createOk({ billing_cycle: MONTHLY });
    const res = await get(p.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toEqual(p);
  });

  it("include=product adds the product, last", async () => {
    const prod = await createProduct({ name: "Included", description: "With a description" });
    const p = await createOk({ product_id: prod.id });
    const res = await get(p.id, "?include=product");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual([...FIELDS, "product"]);
    expect(Object.keys(res.body.data.product)).toEqual(PRODUCT_FIELDS);
    expect(res.body.data.product).toEqual(prod);
    const { product: _, ...price } = res.body.data;
    expect(price).toEqual(p);
  });

  it("include=product shows an archived product too", async () => {
    const prod = await createProduct();
    const p = await createOk({ product_id: prod.id });
    await updateProduct(prod.id, { status: "archived" });
    expect((await get(p.id, "?include=product")).body.data.product.status).toBe("archived");
  });

  it("refuses an unknown include", async () => {
    const p = await createOk();
    const res = await get(p.id, "?include=prices");
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)[0]).toMatch(/^include/);
  });

  it.each([
    ["an unknown ID", () => newId("pri")],
    ["a malformed ID", () => "pri_nope"],
    ["an ID of another entity", () => newId("pro")],
  ])("gives 404 not_found for %s", async (_name, makeId) => {
    const id = makeId();
    const error = expectError(await get(id), 404, "not_found");
    expect(error.detail).toContain(id);
  });
});

describe("PATCH /prices/{price_id}", () => {
  it("changes every field given and leaves the others", async () => {
    const p = await createOk({ name: "Before", billing_cycle: MONTHLY, custom_data: { a: 1 } });
    const changes = {
      description: "After",
      name: "After name",
      type: "custom",
      billing_cycle: { interval: "week", frequency: 2 },
      trial_period: { interval: "day", frequency: 3 },
      tax_mode: "external",
      unit_price: { amount: "4200", currency_code: "GBP" },
      unit_price_overrides: [{ country_codes: ["IE"], unit_price: { amount: "5000", currency_code: "EUR" } }],
      quantity: { minimum: 3, maximum: 30 },
      custom_data: { b: 2 },
    };
    const res = await update(p.id, changes);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(FIELDS);
    expect(res.body.data).toMatchObject({ ...changes, id: p.id, product_id: p.product_id, created_at: p.created_at });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(p.updated_at));
    expect((await get(p.id)).body.data).toEqual(res.body.data);

    const partial = await update(p.id, { quantity: { minimum: 1, maximum: 2 } });
    expect(partial.body.data).toMatchObject({ ...changes, quantity: { minimum: 1, maximum: 2 } });
  });

  it("makes a price one-time with billing_cycle null, and clears the nullable fields", async () => {
    const p = await createOk({ name: "Named", billing_cycle: MONTHLY, trial_period: MONTHLY, custom_data: { a: 1 } });
    const res = await update(p.id, { billing_cycle: null, trial_period: null, name: null, custom_data: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ billing_cycle: null, trial_period: null, name: null, custom_data: null });
    const overrides = await createOk({
      unit_price_overrides: [{ country_codes: ["US"], unit_price: USD_10 }],
    });
    expect((await update(overrides.id, { unit_price_overrides: [] })).body.data.unit_price_overrides).toEqual([]);
  });

  describe("the trial rule, against the stored price", () => {
    it("refuses a trial on a one-time price (trial_period named)", async () => {
      const p = await createOk();
      const res = await update(p.id, { trial_period: { interval: "day", frequency: 7 } });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["trial_period"]);
    });

    it("refuses removing the billing cycle of a price that keeps its trial (billing_cycle named)", async () => {
      const p = await createOk({ billing_cycle: MONTHLY, trial_period: MONTHLY });
      const res = await update(p.id, { billing_cycle: null });
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)).toEqual(["billing_cycle"]);
      expect((await get(p.id)).body.data).toEqual(p);
    });

    it("allows a trial on a recurring price, and both in one request on a one-time price", async () => {
      const recurring = await createOk({ billing_cycle: MONTHLY });
      const withTrial = await update(recurring.id, { trial_period: { interval: "week", frequency: 1 } });
      expect(withTrial.status).toBe(200);
      expect(withTrial.body.data.trial_period).toEqual({ interval: "week", frequency: 1 });
      const oneTime = await createOk();
      const both = await update(oneTime.id, { billing_cycle: MONTHLY, trial_period: MONTHLY });
      expect(both.status).toBe(200);
      expect(both.body.data).toMatchObject({ billing_cycle: MONTHLY, trial_period: MONTHLY });
    });
  });

  it("applies the create limits on update", async () => {
    const p = await createOk();
    expect((await update(p.id, { description: "d".repeat(500), name: "n".repeat(150) })).status).toBe(200);
    expect((await update(p.id, { quantity: { minimum: 999_999_999, maximum: 999_999_999 } })).status).toBe(200);
    expect((await update(p.id, { unit_price: { amount: "9".repeat(18), currency_code: "JPY" } })).status).toBe(200);
  });

  it.each([
    ["description", { description: "d".repeat(501) }],
    ["description", { description: "" }],
    ["description", { description: null }],
    ["name", { name: "n".repeat(151) }],
    ["type", { type: "x" }],
    ["billing_cycle.frequency", { billing_cycle: { interval: "month", frequency: 0 } }],
    ["trial_period.interval", { trial_period: { interval: "hour", frequency: 1 } }],
    ["tax_mode", { tax_mode: "x" }],
    ["unit_price.amount", { unit_price: { amount: "1".repeat(19), currency_code: "USD" } }],
    ["unit_price", { unit_price: null }],
    [
      "unit_price_overrides[1].country_codes[0]",
      {
        unit_price_overrides: [
          { country_codes: ["US"], unit_price: USD_10 },
          { country_codes: ["US"], unit_price: USD_10 },
        ],
      },
    ],
    ["quantity.maximum", { quantity: { minimum: 1, maximum: 1_000_000_000 } }],
    ["quantity.minimum", { quantity: { minimum: 3, maximum: 2 } }],
    ["custom_data", { custom_data: 1 }],
    ["status", { status: "deleted" }],
    ["product_id", { product_id: newId("pro") }],
  ])("refuses an invalid %s and changes nothing", async (field, body) => {
    const p = await createOk();
    const res = await update(p.id, body);
    expectError(res, 400, "invalid_field");
    expect(errorFields(res)).toEqual([field]);
    expect((await get(p.id)).body.data).toEqual(p);
  });

  it.each([
    ["an unknown ID", () => newId("pri")],
    ["a malformed ID", () => "pri_bad"],
  ])("gives 404 not_found for %s", async (_name, makeId) => {
    expectError(await update(makeId(), { description: "xx" }), 404, "not_found");
  });

  describe("archived prices", () => {
    it("archives and unarchives through status", async () => {
      const p = await createOk();
      const archived = await update(p.id, { status: "archived" });
      expect(archived.status).toBe(200);
      expect(archived.body.data.status).toBe("archived");
      const active = await update(p.id, { status: "active" });
      expect(active.status).toBe(200);
      expect(active.body.data.status).toBe("active");
    });

    it("refuses any change to an archived price with 400 entity_archived, naming it", async () => {
      const p = await createOk();
      const archived = (await update(p.id, { status: "archived" })).body.data;
      for (const body of [
        { description: "xx" },
        { unit_price: USD_10 },
        { billing_cycle: MONTHLY },
        {},
        { status: "archived" },
      ]) {
        const error = expectError(await update(p.id, body), 400, "entity_archived");
        expect(error.detail).toContain(p.id);
      }
      expect((await get(p.id)).body.data).toEqual(archived);
    });

    it("lets an unarchiving request change other fields too", async () => {
      const p = await createOk();
      await update(p.id, { status: "archived" });
      const res = await update(p.id, { status: "active", description: "Back" });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ status: "active", description: "Back" });
    });

    it("a price of an archived product can still be changed (only new prices are refused)", async () => {
      const prod = await createProduct();
      const p = await createOk({ product_id: prod.id });
      await updateProduct(prod.id, { status: "archived" });
      const res = await update(p.id, { description: "Still editable" });
      expect(res.status).toBe(200);
      expect(res.body.data.description).toBe("Still editable");
    });
  });
});

describe("GET /prices", () => {
  it("lists prices with pagination meta, each in the price shape", async () => {
    const p = await createOk();
    const res = await list("?per_page=200");
    expect(res.status).toBe(200);
    for (const row of res.body.data) expect(Object.keys(row)).toEqual(FIELDS);
    expect(ids(res)).toContain(p.id);
    expect(Object.keys(res.body.meta.pagination).sort()).toEqual(["estimated_total", "has_more", "next", "per_page"]);
  });

  it("lists only active prices by default; status picks archived ones", async () => {
    const active = await createOk();
    const archived = await createOk();
    await update(archived.id, { status: "archived" });
    const only = `?id=${active.id},${archived.id}`;
    expect(ids(await list(only))).toEqual([active.id]);
    expect(ids(await list(`${only}&status=archived`))).toEqual([archived.id]);
    expect(ids(await list(`${only}&status=archived,active`))).toEqual([active.id, archived.id]);
  });

  describe("filters", () => {
    it("filters by id (comma-separated)", async () => {
      const a = await createOk();
      const b = await createOk();
      await createOk();
      expect(ids(await list(`?id=${a.id},${b.id}`))).toEqual([a.id, b.id]);
    });

    it("filters by product_id (comma-separated)", async () => {
      const p1 = await createProduct();
      const p2 = await createProduct();
      const p3 = await createProduct();
      const a = await createOk({ product_id: p1.id });
      const b = await createOk({ product_id: p2.id });
      const c = await createOk({ product_id: p1.id });
      await createOk({ product_id: p3.id });
      expect(ids(await list(`?product_id=${p1.id}`))).toEqual([a.id, c.id]);
      expect(ids(await list(`?product_id=${p1.id},${p2.id}`))).toEqual([a.id, b.id, c.id]);
      expect(ids(await list(`?product_id=${newId("pro")}`))).toEqual([]);
    });

    it("filters by recurring", async () => {
      const prod = await createProduct();
      const monthly = await createOk({ product_id: prod.id, billing_cycle: MONTHLY });
      const oneTime = await createOk({ product_id: prod.id });
      expect(ids(await list(`?product_id=${prod.id}&recurring=true`))).toEqual([monthly.id]);
      expect(ids(await list(`?product_id=${prod.id}&recurring=false`))).toEqual([oneTime.id]);
      expect(ids(await list(`?product_id=${prod.id}`))).toEqual([monthly.id, oneTime.id]);
    });

    it("filters by type", async () => {
      const prod = await createProduct();
      const standard = await createOk({ product_id: prod.id });
      const custom = await createOk({ product_id: prod.id, type: "custom" });
      expect(ids(await list(`?product_id=${prod.id}&type=custom`))).toEqual([custom.id]);
      expect(ids(await list(`?product_id=${prod.id}&type=standard`))).toEqual([standard.id]);
    });

    it.each([
      ["id", "?id=pri_bad"],
      ["id", `?id=${newId("pro")}`],
      ["product_id", "?product_id=pro_bad"],
      ["status", "?status=deleted"],
      ["recurring", "?recurring=yes"],
      ["recurring", "?recurring=1"],
      ["type", "?type=x"],
      ["include", "?include=prices"],
      ["order_by", "?order_by=name[ASC]"],
      ["order_by", "?order_by=unit_price[ASC]"],
      ["order_by", "?order_by=unit_price.amount"],
      ["per_page", "?per_page=-1"],
    ])("refuses an invalid %s (%s)", async (field, query) => {
      const res = await list(query);
      expectError(res, 400, "invalid_field");
      expect(errorFields(res)[0]!.split("[")[0]).toBe(field);
    });
  });

  it("include=product adds each price's product", async () => {
    const p1 = await createProduct({ name: "First" });
    const p2 = await createProduct({ name: "Second" });
    const a = await createOk({ product_id: p1.id });
    const b = await createOk({ product_id: p2.id });
    const res = await list(`?id=${a.id},${b.id}&include=product`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { product: unknown }) => p.product)).toEqual([p1, p2]);
    expect(Object.keys(res.body.data[0])).toEqual([...FIELDS, "product"]);
    expect(Object.keys((await list(`?id=${a.id}`)).body.data[0])).toEqual(FIELDS);
  });

  describe("order_by", () => {
    it("orders by id ascending by default, and descending with id[DESC]", async () => {
      const made = [await createOk(), await createOk(), await createOk()].map((p) => p.id);
      const only = `?id=${made.join(",")}`;
      expect(ids(await list(only))).toEqual(made);
      expect(ids(await list(`${only}&order_by=id[DESC]`))).toEqual([...made].reverse());
    });

    it("orders by unit_price.amount numerically, across pages with after", async () => {
      const prod = await createProduct();
      const amounts = ["900", "10000", "5", "900", "0"];
      const made = [];
      for (const amount of amounts)
        made.push(await createOk({ product_id: prod.id, unit_price: { amount, currency_code: "USD" } }));
      const [p900a, p10000, p5, p900b, p0] = made.map((p) => p.id);
      const asc = await walk(`?product_id=${prod.id}&order_by=unit_price.amount[ASC]&per_page=2`);
      expect(asc.ids).toEqual([p0, p5, p900a, p900b, p10000]);
      expect(asc.pages).toBe(3);
      const desc = await walk(
        `?product_id=${prod.id}&order_by=${encodeURIComponent("unit_price.amount[DESC]")}&per_page=2`,
      );
      expect(desc.ids).toEqual([p10000, p900b, p900a, p5, p0]);
      const after = await list(`?product_id=${prod.id}&order_by=unit_price.amount[ASC]&per_page=2&after=${p900a}`);
      expect(ids(after)).toEqual([p900b, p10000]);
      expect(after.body.meta.pagination.has_more).toBe(false);
    });

    it("orders by a nullable field (billing_cycle.frequency): one-time prices first, across pages", async () => {
      const prod = await createProduct();
      const m3 = await createOk({ product_id: prod.id, billing_cycle: { interval: "month", frequency: 3 } });
      const once1 = await createOk({ product_id: prod.id });
      const m1 = await createOk({ product_id: prod.id, billing_cycle: MONTHLY });
      const once2 = await createOk({ product_id: prod.id });
      const only = `?product_id=${prod.id}&per_page=1`;
      expect((await walk(`${only}&order_by=billing_cycle.frequency[ASC]`)).ids).toEqual([
        once1.id,
        once2.id,
        m1.id,
        m3.id,
      ]);
      expect((await walk(`${only}&order_by=billing_cycle.frequency[DESC]`)).ids).toEqual([
        m3.id,
        m1.id,
        once2.id,
        once1.id,
      ]);
      const afterNull = await list(`?product_id=${prod.id}&order_by=billing_cycle.frequency[ASC]&after=${once2.id}`);
      expect(ids(afterNull)).toEqual([m1.id, m3.id]);
      expect((await walk(`${only}&order_by=billing_cycle.interval[ASC]`)).ids).toEqual([
        once1.id,
        once2.id,
        m3.id,
        m1.id,
      ]);
    });

    it("orders by the other fields of the API family", async () => {
      const p1 = await createProduct();
      const p2 = await createProduct();
      const a = await createOk({
        product_id: p2.id,
        tax_mode: "internal",
        unit_price: { amount: "1", currency_code: "USD" },
        quantity: { minimum: 5, maximum: 10 },
      });
      const b = await createOk({
        product_id: p1.id,
        tax_mode: "account_setting",
        unit_price: { amount: "1", currency_code: "EUR" },
        quantity: { minimum: 1, maximum: 500 },
      });
      await update(a.id, { status: "archived" });
      const only = `?product_id=${p1.id},${p2.id}&status=active,archived&per_page=1`;
      const order = async (field: string) => (await walk(`${only}&order_by=${field}`)).ids;
      expect(await order("product_id[ASC]")).toEqual([b.id, a.id]);
      expect(await order("tax_mode[DESC]")).toEqual([a.id, b.id]);
      expect(await order("status[DESC]")).toEqual([a.id, b.id]);
      expect(await order("unit_price.currency_code[ASC]")).toEqual([b.id, a.id]);
      expect(await order("quantity.minimum[DESC]")).toEqual([a.id, b.id]);
      expect(await order("quantity.maximum[DESC]")).toEqual([b.id, a.id]);
      expect(await order("created_at[DESC]")).toEqual([b.id, a.id]);
      expect(await order("updated_at[DESC]")).toEqual([a.id, b.id]);
    });
  });

  describe("pagination", () => {
    let productId = "";
    let all: string[] = [];

    async function seed(): Promise<void> {
      if (all.length) return;
      productId = (await createProduct({ name: "Paged" })).id;
      const rows = Array.from({ length: 130 }, () => ({
        id: newId("pri"),
        productId,
        description: "Paged price",
        unitPriceAmount: 100n,
        unitPriceCurrency: "USD",
      }));
      await db().price.createMany({ data: rows });
      all = rows.map((r) => r.id);
    }

    it("follows next through every page, keeping the query", async () => {
      await seed();
      const first = await list(`?product_id=${productId}&per_page=60&include=product`);
      expect(first.body.data).toHaveLength(60);
      expect(first.body.meta.pagination).toMatchObject({ per_page: 60, has_more: true, estimated_total: 130 });
      const next = new URL(first.body.meta.pagination.next);
      expect(next.searchParams.get("after")).toBe(all[59]);
      expect(next.searchParams.get("product_id")).toBe(productId);
      expect(next.searchParams.get("include")).toBe("product");
      const second = await follow(first);
      expect(ids(second)).toEqual(all.slice(60, 120));
      expect(second.body.data[0].product.id).toBe(productId);
      const third = await follow(second);
      expect(ids(third)).toEqual(all.slice(120));
      expect(third.body.meta.pagination.has_more).toBe(false);
    });

    it("defaults per_page to 50 and caps it at 200", async () => {
      await seed();
      expect((await list(`?product_id=${productId}`)).body.data).toHaveLength(50);
      const capped = await list(`?product_id=${productId}&per_page=1000`);
      expect(capped.body.data).toHaveLength(130);
      expect(capped.body.meta.pagination.per_page).toBe(200);
    });

    it("a product with include=prices carries all 130 (related entities are not paginated)", async () => {
      await seed();
      const res = await call(productItem.GET, "GET", `/products/${productId}?include=prices`, {
        key: await admin(),
        params: { product_id: productId },
      });
      expect(res.body.data.prices.map((p: { id: string }) => p.id)).toEqual(all);
    });
  });
});

describe("permissions", () => {
  const WITHOUT_PRICE = permissionsWithout("price.");

  it("GET /prices needs price.read (price.write implies it)", async () => {
    await expectPermission((key) => list("", key), {
      permission: "price.read",
      denied: [WITHOUT_PRICE, ["product.write"]],
      allowed: [["price.read"], ["price.write"]],
    });
  });

  it("POST /prices needs price.write (and nothing of the product)", async () => {
    const body = await valid({ description: "Permission probe" });
    await expectForbidden((key) => create(body, key), [WITHOUT_PRICE, ["price.read"]], "price.write");
    expect(await db().price.count({ where: { description: "Permission probe" } })).toBe(0);
    await expectAllowed((key) => create(body, key), [["price.write"]], 201);
  });

  it("GET /prices/{id} needs price.read (price.write implies it)", async () => {
    const p = await createOk();
    await expectPermission((key) => get(p.id, "", key), {
      permission: "price.read",
      denied: [WITHOUT_PRICE, ["product.read"]],
      allowed: [["price.read"], ["price.write"]],
    });
  });

  it("PATCH /prices/{id} needs price.write", async () => {
    const p = await createOk({ description: "Before" });
    await expectForbidden(
      (key) => update(p.id, { description: "After" }, key),
      [WITHOUT_PRICE, ["price.read"]],
      "price.write",
    );
    expect((await get(p.id)).body.data.description).toBe("Before");
    const ok = await update(p.id, { description: "After" }, await testKey(["price.write"]));
    expect(ok.status).toBe(200);
    expect(ok.body.data.description).toBe("After");
  });

  it("checks the permission before looking the price up (403, not 404)", async () => {
    expectError(await get(newId("pri"), "", await testKey(["product.read"])), 403, "forbidden");
  });
});

describe("unsupported methods", () => {
  it("answers 405 method_not_allowed for the methods a path does not have", async () => {
    const id = newId("pri");
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/prices");
    await expectMethodsNotAllowed(item, ["PUT", "POST", "DELETE"], `/prices/${id}`);
  });
});

describe("events", () => {
  it("writes one price.created event whose data is the response entity", async () => {
    const p = await createOk({
      billing_cycle: MONTHLY,
      unit_price_overrides: [{ country_codes: ["DE"], unit_price: { amount: "900", currency_code: "EUR" } }],
    });
    const event = await expectOnlyEvent(p.id, "price.created", p);
    expect(Object.keys(event!.data as object)).toEqual(FIELDS);
  });

  it("writes one price.updated event per update, with the updated entity", async () => {
    const p = await createOk();
    const changed = await update(p.id, { description: "Evented" });
    const archived = await update(p.id, { status: "archived" });
    const rows = await events(p.id);
    expect(rows.map((e) => e.eventType)).toEqual(["price.created", "price.updated", "price.updated"]);
    expect(rows.slice(1).map((e) => e.data)).toEqual([changed.body.data, archived.body.data]);
  });

  it("writes no event for a refused create or update", async () => {
    const p = await createOk({ billing_cycle: MONTHLY, trial_period: MONTHLY });
    const archived = await createOk();
    await update(archived.id, { status: "archived" });
    const before = await db().event.count();
    expectError(await create(await valid({ product_id: newId("pro") })), 400, "invalid_field");
    expectError(await create(await valid({ description: "" })), 400, "invalid_field");
    expectError(await update(p.id, { billing_cycle: null }), 400, "invalid_field");
    expectError(await update(archived.id, { description: "xx" }), 400, "entity_archived");
    expectError(await update(newId("pri"), { description: "xx" }), 404, "not_found");
    expect(await db().event.count()).toBe(before);
  });
});
