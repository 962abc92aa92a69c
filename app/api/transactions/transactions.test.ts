/**
 * Transactions: create, get, list and edit, through the real route handlers on a real database.
 *   GET/POST  /transactions
 *   GET/PATCH /transactions/{transaction_id}
 * States and billing: states.test.ts. Totals: totals.test.ts. Previews: preview/.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_CARD } from "@/lib/dev/test/adjustments";
import { call, errorFields, expectError, expectFieldError, expectNotFound } from "@/lib/dev/test/api";
import {
  events,
  expectAllowed,
  expectForbidden,
  expectMethodsNotAllowed,
  expectPermission,
  permissionsWithout,
} from "@/lib/dev/test/checks";
import { admin, ids } from "@/lib/dev/test/resource";
import {
  archivePrice,
  archiveProduct,
  MANUAL_TERMS,
  makeAddress,
  makeBusiness,
  makeBuyer,
  makeCustomer,
  makeDiscount,
  makePrice,
  makeProduct,
  makeReady,
  makeTransaction,
  transactions,
} from "@/lib/dev/test/transactions";
import { newId } from "@/lib/ids";
import { payAtCheckout } from "@/lib/services/payments/checkout";
import * as customerItem from "../customers/[customer_id]/route";
import * as discountItem from "../discounts/[discount_id]/route";
import * as priceItem from "../prices/[price_id]/route";
import * as item from "./[transaction_id]/route";
import * as collection from "./route";

const FIELDS = [
  "id",
  "status",
  "customer_id",
  "address_id",
  "business_id",
  "custom_data",
  "currency_code",
  "origin",
  "subscription_id",
  "invoice_id",
  "invoice_number",
  "collection_mode",
  "discount_id",
  "billing_details",
  "billing_period",
  "items",
  "details",
  "payments",
  "checkout",
  "created_at",
  "updated_at",
  "billed_at",
  "revised_at",
];
const DETAILS_FIELDS = [
  "tax_rates_used",
  "totals",
  "adjusted_totals",
  "payout_totals",
  "adjusted_payout_totals",
  "line_items",
];
const TOTALS_FIELDS = [
  "subtotal",
  "discount",
  "tax",
  "total",
  "credit",
  "credit_to_balance",
  "balance",
  "grand_total",
  "grand_total_tax",
  "fee",
  "earnings",
  "currency_code",
];
const LINE_FIELDS = ["id", "price_id", "quantity", "proration", "tax_rate", "unit_totals", "totals", "product"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

const { create, get, update, list } = transactions;

type Entity = Record<string, any>;

let price: Entity;
let buyer: { customer: Entity; address: Entity };

beforeAll(async () => {
  price = await makePrice();
  buyer = await makeBuyer();
});

function oneItem(quantity = 1) {
  return [{ price_id: price.id, quantity }];
}

/** A 400 invalid_field naming exactly `fields` (in any order). */
function expectFields(res: Awaited<ReturnType<typeof create>>, fields: string[]) {
  expectError(res, 400, "invalid_field");
  expect(new Set(errorFields(res))).toEqual(new Set(fields));
}

describe("POST /transactions", () => {
  it("creates a ready transaction: 201, the spec's fields in order, totals, events created then ready", async () => {
    const res = await create({
      items: oneItem(2),
      customer_id: buyer.customer.id,
      address_id: buyer.address.id,
      custom_data: { order: "A-1" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const t = res.body.data;
    expect(Object.keys(t)).toEqual(FIELDS);
    expect(t.id).toMatch(/^txn_[a-z0-9]{26}$/);
    expect(t).toMatchObject({
      status: "ready",
      customer_id: buyer.customer.id,
      address_id: buyer.address.id,
      business_id: null,
      custom_data: { order: "A-1" },
      currency_code: "USD",
      origin: "api",
      subscription_id: null,
      invoice_id: null,
      invoice_number: null,
      collection_mode: "automatic",
      discount_id: null,
      billing_details: null,
      billing_period: null,
      payments: [],
      // No URL given: the hosted checkout page (app/checkout), as the API family's default payment link.
      checkout: { url: `http://localhost:3000/checkout?_ptxn=${res.body.data.id}` },
      billed_at: null,
      revised_at: null,
    });
    expect(t.created_at).toMatch(TIMESTAMP);
    expect(t.updated_at).toBe(t.created_at);
    // Items carry the full price object.
    expect(t.items).toEqual([{ price_id: price.id, price, quantity: 2, proration: null }]);
    expect(Object.keys(t.items[0])).toEqual(["price_id", "price", "quantity", "proration"]);
    // Details: amounts as strings, in the spec's order.
    expect(Object.keys(t.details)).toEqual(DETAILS_FIELDS);
    expect(Object.keys(t.details.totals)).toEqual(TOTALS_FIELDS);
    expect(t.details.totals).toMatchObject({ subtotal: "2000", discount: "0", tax: "0", total: "2000" });
    expect(t.details.totals).toMatchObject({ grand_total: "2000", balance: "2000", fee: null, earnings: null });
    expect(t.details.payout_totals).toBeNull();
    expect(t.details.line_items).toHaveLength(1);
    const line = t.details.line_items[0];
    expect(Object.keys(line)).toEqual(LINE_FIELDS);
    expect(line.id).toMatch(/^txnitm_[a-z0-9]{26}$/);
    expect(line).toMatchObject({ price_id: price.id, quantity: 2, proration: null, tax_rate: "0" });
    expect(line.unit_totals).toEqual({ subtotal: "1000", discount: "0", tax: "0", total: "1000" });
    expect(line.product.id).toBe(price.product_id);
    expect(Object.keys(res.body.meta)).toEqual(["request_id"]);

    const again = await get(t.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(t);

    const evts = await events(t.id);
    expect(evts.map((e) => e.eventType)).toEqual(["transaction.created", "transaction.ready"]);
    expect(evts[0]!.data).toEqual(t);
    expect(evts[1]!.data).toEqual(t);
  });

  it("creates a draft without a customer or an address, with only transaction.created", async () => {
    const t = await makeTransaction({ items: oneItem() });
    expect(t).toMatchObject({ status: "draft", customer_id: null, address_id: null });
    expect((await events(t.id)).map((e) => e.eventType)).toEqual(["transaction.created"]);
    const withCustomer = await makeTransaction({ items: oneItem(), customer_id: buyer.customer.id });
    expect(withCustomer.status).toBe("draft");
  });

  it("holds a complete transaction as a draft when status draft is asked for", async () => {
    const t = await makeTransaction({
      items: oneItem(),
      customer_id: buyer.customer.id,
      address_id: buyer.address.id,
      status: "draft",
    });
    expect(t.status).toBe("draft");
  });

  it("accepts status ready when complete", async () => {
    const t = await makeTransaction({
      items: oneItem(),
      customer_id: buyer.customer.id,
      address_id: buyer.address.id,
      status: "ready",
    });
    expect(t.status).toBe("ready");
  });

  it("stores every optional field: business, manual collection with billing details, billing period, custom data", async () => {
    const { customer, address } = await makeBuyer("GB");
    const business = await makeBusiness(customer.id);
    const gbp = await makePrice({ unit_price: { amount: "5000", currency_code: "GBP" } });
    const t = await makeTransaction({
      items: [{ price_id: gbp.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      business_id: business.id,
      collection_mode: "manual",
      billing_details: {
        enable_checkout: true,
        purchase_order_number: "PO-42",
        additional_information: "Net 30",
        payment_terms: { interval: "day", frequency: 30 },
      },
      billing_period: { starts_at: "2030-01-01T00:00:00Z", ends_at: "2030-02-01T00:00:00Z" },
      checkout: { url: "https://shop.example.com/pay?ref=x" },
    });
    expect(t).toMatchObject({
      business_id: business.id,
      collection_mode: "manual",
      currency_code: "GBP",
      billing_details: {
        enable_checkout: true,
        purchase_order_number: "PO-42",
        additional_information: "Net 30",
        payment_terms: { interval: "day", frequency: 30 },
      },
      billing_period: { starts_at: "2030-01-01T00:00:00.000000Z", ends_at: "2030-02-01T00:00:00.000000Z" },
      checkout: { url: `https://shop.example.com/pay?ref=x&_ptxn=${t.id}` },
    });
    expect(Object.keys(t.billing_details)).toEqual([
      "enable_checkout",
      "purchase_order_number",
      "additional_information",
      "payment_terms",
    ]);
    // 20% VAT in the United Kingdom on a tax-exclusive price.
    expect(t.details.totals).toMatchObject({ subtotal: "5000", tax: "1000", total: "6000", currency_code: "GBP" });
  });

  it('fills billing_details defaults: enable_checkout false, purchase_order_number "" (the family\'s), no information', async () => {
    const t = await makeTransaction({
      items: oneItem(),
      customer_id: buyer.customer.id,
      address_id: buyer.address.id,
      collection_mode: "manual",
      billing_details: MANUAL_TERMS,
    });
    expect(t.billing_details).toEqual({
      enable_checkout: false,
      purchase_order_number: "",
      additional_information: null,
      payment_terms: { interval: "day", frequency: 30 },
    });
  });

  it("takes the currency from the first price, as the customer's country sees it", async () => {
    const overridden = await makePrice({
      unit_price: { amount: "1000", currency_code: "USD" },
      unit_price_overrides: [{ country_codes: ["DE"], unit_price: { amount: "900", currency_code: "EUR" } }],
    });
    const us = await makeTransaction({ items: [{ price_id: overridden.id, quantity: 1 }] });
    expect(us.currency_code).toBe("USD");
    const de = await makeBuyer("DE");
    const t = await makeTransaction({
      items: [{ price_id: overridden.id, quantity: 1 }],
      customer_id: de.customer.id,
      address_id: de.address.id,
    });
    expect(t.currency_code).toBe("EUR");
    expect(t.details.totals).toMatchObject({ subtotal: "900", tax: "171", total: "1071" });
    const jpy = await makePrice({ unit_price: { amount: "500", currency_code: "JPY" } });
    expect((await makeTransaction({ items: [{ price_id: jpy.id, quantity: 3 }] })).currency_code).toBe("JPY");
  });

  describe("non-catalogue items", () => {
    it("creates a custom price for an existing product, with its event", async () => {
      const product = await makeProduct();
      const t = await makeTransaction({
        items: [
          {
            price: {
              description: "Setup fee",
              name: "Setup",
              product_id: product.id,
              unit_price: { amount: "2500", currency_code: "USD" },
              tax_mode: "external",
            },
            quantity: 1,
          },
        ],
      });
      const created = t.items[0].price;
      expect(created.id).toMatch(/^pri_[a-z0-9]{26}$/);
      expect(t.items[0].price_id).toBe(created.id);
      expect(created).toMatchObject({
        type: "custom",
        product_id: product.id,
        description: "Setup fee",
        name: "Setup",
      });
      expect(t.details.totals.subtotal).toBe("2500");
      expect(t.details.line_items[0].product.id).toBe(product.id);
      const got = await call(priceItem.GET, "GET", `/prices/${created.id}`, {
        key: await admin(),
        params: { price_id: created.id },
      });
      expect(got.body.data).toEqual(created);
      expect((await events(created.id)).map((e) => e.eventType)).toEqual(["price.created"]);
    });

    it("creates a custom product and price from a product object", async () => {
      const t = await makeTransaction({
        items: [
          {
            price: {
              description: "Consulting",
              product: { name: "Consulting day", tax_category: "professional-services" },
              unit_price: { amount: "80000", currency_code: "USD" },
              quantity: { minimum: 1, maximum: 10 },
            },
            quantity: 2,
          },
          { price_id: price.id, quantity: 1 },
        ],
      });
      const product = t.details.line_items[0].product;
      expect(product).toMatchObject({ type: "custom", name: "Consulting day", tax_category: "professional-services" });
      expect(product.id).toMatch(/^pro_[a-z0-9]{26}$/);
      expect(t.items[0].price).toMatchObject({
        product_id: product.id,
        type: "custom",
        quantity: { minimum: 1, maximum: 10 },
      });
      expect(t.details.totals.subtotal).toBe("161000");
      expect((await events(product.id)).map((e) => e.eventType)).toEqual(["product.created"]);
    });

    it("applies a non-catalogue discount, saved as a custom discount", async () => {
      const t = await makeTransaction({
        items: oneItem(3),
        discount: { description: "Loyalty", type: "flat", amount: "500" },
      });
      expect(t.discount_id).toMatch(/^dsc_[a-z0-9]{26}$/);
      expect(t.details.totals).toMatchObject({ subtotal: "3000", discount: "500", total: "2500" });
      const withDiscount = await get(t.id, "?include=discount");
      expect(withDiscount.body.data.discount).toMatchObject({
        id: t.discount_id,
        mode: "custom",
        type: "flat",
        amount: "500",
        currency_code: "USD",
        code: null,
        enabled_for_checkout: false,
      });
    });

    it("names the problems of a non-catalogue price by their field", async () => {
      const product = await makeProduct();
      const base = { description: "Xx", unit_price: { amount: "100", currency_code: "USD" } };
      expectFields(await create({ items: [{ price: base, quantity: 1 }] }), ["items[0].price.product_id"]);
      expectFields(
        await create({
          items: [
            {
              price: { ...base, product_id: product.id, product: { name: "P", tax_category: "standard" } },
              quantity: 1,
            },
          ],
        }),
        ["items[0].price.product_id"],
      );
      const unknown = newId("pro");
      const res = await create({ items: [{ price: { ...base, product_id: unknown }, quantity: 1 }] });
      expectFields(res, ["items[0].price.product_id"]);
      expect(res.body.error.errors[0].message).toContain(unknown);
      expectFields(
        await create({
          items: [
            {
              price: { ...base, product_id: product.id, unit_price: { amount: "-1", currency_code: "USD" } },
              quantity: 1,
            },
          ],
        }),
        ["items[0].price.unit_price.amount"],
      );
      expectFields(
        await create({
          items: [{ price: { ...base, product_id: product.id, quantity: { minimum: 1, maximum: 2 } }, quantity: 3 }],
        }),
        ["items[0].quantity"],
      );
      expectFields(
        await create({ items: [{ price: { ...base, product: { name: "", tax_category: "standard" } }, quantity: 1 }] }),
        ["items[0].price.product.name"],
      );
      await archiveProduct(product.id);
      const archived = await create({ items: [{ price: { ...base, product_id: product.id }, quantity: 1 }] });
      expectError(archived, 400, "entity_archived");
      expect(errorFields(archived)).toEqual(["items[0].price.product_id"]);
    });
  });

  describe("validation", () => {
    it("refuses 0 items and 101 items, accepts 100", async () => {
      expectFields(await create({ items: [] }), ["items"]);
      const prices = await Promise.all(Array.from({ length: 101 }, () => makePrice()));
      const hundredOne = prices.map((p) => ({ price_id: p.id, quantity: 1 }));
      expectFields(await create({ items: hundredOne }), ["items"]);
      const t = await makeTransaction({ items: hundredOne.slice(0, 100) });
      expect(t.items).toHaveLength(100);
      expect(t.details.line_items).toHaveLength(100);
      expect(t.details.totals.subtotal).toBe("100000");
      expectFields(await create({}), ["items"]);
    });

    it("keeps each quantity within its price's minimum and maximum", async () => {
      const limited = await makePrice({ quantity: { minimum: 2, maximum: 5 } });
      const send = (quantity: unknown) => create({ items: [{ price_id: limited.id, quantity }] });
      expect((await send(2)).status).toBe(201);
      expect((await send(5)).status).toBe(201);
      for (const q of [1, 6]) {
        const res = await send(q);
        expectFields(res, ["items[0].quantity"]);
        expect(res.body.error.errors[0].message).toContain("2 to 5");
      }
      for (const q of [0, -1, 1.5, "2", null, 1_000_000_000]) expectFields(await send(q), ["items[0].quantity"]);
      expectFields(await create({ items: [{ price_id: limited.id }] }), ["items[0].quantity"]);
    });

    it("refuses an archived price, and a price of an archived product, with entity_archived on the item's field", async () => {
      const archived = await makePrice();
      await archivePrice(archived.id);
      const res = await create({
        items: [
          { price_id: price.id, quantity: 1 },
          { price_id: archived.id, quantity: 1 },
        ],
      });
      const error = expectError(res, 400, "entity_archived");
      expect(errorFields(res)).toEqual(["items[1].price_id"]);
      expect(error.detail).toContain(archived.id);

      const product = await makeProduct();
      const ofArchivedProduct = await makePrice({ product_id: product.id });
      await archiveProduct(product.id);
      const res2 = await create({ items: [{ price_id: ofArchivedProduct.id, quantity: 1 }] });
      expectError(res2, 400, "entity_archived");
      expect(errorFields(res2)).toEqual(["items[0].price_id"]);
    });

    it("names every unknown ID as a field error, all in one response", async () => {
      const res = await create({
        items: [{ price_id: newId("pri"), quantity: 1 }],
        customer_id: newId("ctm"),
        discount_id: newId("dsc"),
      });
      expectFields(res, ["items[0].price_id", "customer_id", "discount_id"]);
      expectFields(await create({ items: oneItem(), customer_id: buyer.customer.id, address_id: newId("add") }), [
        "address_id",
      ]);
      expectFields(await create({ items: oneItem(), customer_id: buyer.customer.id, business_id: newId("biz") }), [
        "business_id",
      ]);
    });

    it("refuses malformed IDs as field errors", async () => {
      expectFields(await create({ items: [{ price_id: "pri_x", quantity: 1 }] }), ["items[0].price_id"]);
      expectFields(await create({ items: [{ price_id: newId("pro"), quantity: 1 }] }), ["items[0].price_id"]);
      expectFields(await create({ items: oneItem(), customer_id: "ctm_1" }), ["customer_id"]);
      expectFields(await create({ items: oneItem(), address_id: newId("ctm") }), ["address_id"]);
      expectFields(await create({ items: oneItem(), discount_id: 42 }), ["discount_id"]);
    });

    it("needs either price_id or price in each item, once per price", async () => {
      expectFields(await create({ items: [{ quantity: 1 }] }), ["items[0].price_id"]);
      expectFields(
        await create({
          items: [
            {
              price_id: price.id,
              price: {
                description: "Xx",
                product_id: price.product_id,
                unit_price: { amount: "1", currency_code: "USD" },
              },
              quantity: 1,
            },
          ],
        }),
        ["items[0].price_id"],
      );
      const res = await create({ items: [...oneItem(), ...oneItem(2)] });
      expectFields(res, ["items[1].price_id"]);
      expect(res.body.error.errors[0].message).toContain("items[0]");
    });

    it("refuses an address or a business of another customer, and one without a customer", async () => {
      const other = await makeCustomer();
      const foreignAddress = await makeAddress(other.id);
      const foreignBusiness = await makeBusiness(other.id);
      const res = await create({
        items: oneItem(),
        customer_id: buyer.customer.id,
        address_id: foreignAddress.id,
        business_id: foreignBusiness.id,
      });
      expectFields(res, ["address_id", "business_id"]);
      expect(res.body.error.errors[0].message).toContain(other.id);
      expectFields(await create({ items: oneItem(), address_id: buyer.address.id }), ["address_id"]);
    });

    it("manual collection needs billing_details", async () => {
      const res = await create({
        items: oneItem(),
        customer_id: buyer.customer.id,
        address_id: buyer.address.id,
        collection_mode: "manual",
      });
      expectFields(res, ["billing_details"]);
      expectFields(await create({ items: oneItem(), collection_mode: "manual", billing_details: null }), [
        "billing_details",
      ]);
    });

    it("manual collection needs USD, EUR or GBP", async () => {
      const jpy = await makePrice({ unit_price: { amount: "1000", currency_code: "JPY" } });
      const res = await create({
        items: [{ price_id: jpy.id, quantity: 1 }],
        customer_id: buyer.customer.id,
        address_id: buyer.address.id,
        collection_mode: "manual",
        billing_details: MANUAL_TERMS,
      });
      expectFields(res, ["currency_code"]);
      expect(res.body.error.errors[0].message).toContain("USD, EUR, GBP");
      for (const currency of ["USD", "EUR", "GBP"]) {
        const p = await makePrice({ unit_price: { amount: "1000", currency_code: currency } });
        const t = await makeTransaction({
          items: [{ price_id: p.id, quantity: 1 }],
          collection_mode: "manual",
          billing_details: MANUAL_TERMS,
        });
        expect(t.currency_code).toBe(currency);
      }
    });

    it("manual collection needs a customer with a name", async () => {
      const nameless = await makeCustomer({ name: null });
      const address = await makeAddress(nameless.id);
      const res = await create({
        items: oneItem(),
        customer_id: nameless.id,
        address_id: address.id,
        collection_mode: "manual",
        billing_details: MANUAL_TERMS,
      });
      expectFields(res, ["customer_id"]);
      expect(res.body.error.errors[0].message).toContain("name");
      // Automatic collection needs no name.
      expect((await create({ items: oneItem(), customer_id: nameless.id, address_id: address.id })).status).toBe(201);
    });

    it("lists every rule broken by a manual transaction at once", async () => {
      const nameless = await makeCustomer({ name: null });
      const jpy = await makePrice({ unit_price: { amount: "1000", currency_code: "JPY" } });
      expectFields(
        await create({
          items: [{ price_id: jpy.id, quantity: 1 }],
          customer_id: nameless.id,
          collection_mode: "manual",
        }),
        ["billing_details", "currency_code", "customer_id"],
      );
    });

    it("status: only draft or ready, and ready only with a customer and an address", async () => {
      expectFields(await create({ items: oneItem(), status: "ready" }), ["status"]);
      expectFields(await create({ items: oneItem(), customer_id: buyer.customer.id, status: "ready" }), ["status"]);
      for (const status of ["billed", "completed", "canceled", "paid", "past_due", "nope"]) {
        expectFields(await create({ items: oneItem(), status }), ["status"]);
      }
    });

    it("refuses a currency the items have no price in", async () => {
      expectFields(await create({ items: oneItem(), currency_code: "EUR" }), ["items[0].price_id"]);
      expectFields(await create({ items: oneItem(), currency_code: "XXX" }), ["currency_code"]);
      const eur = await makePrice({ unit_price: { amount: "100", currency_code: "EUR" } });
      expectFields(await create({ items: [...oneItem(), { price_id: eur.id, quantity: 1 }] }), ["items[1].price_id"]);
    });

    it("checks the discount: usable, one kind only, in the transaction's currency", async () => {
      const eurFlat = await makeDiscount({ type: "flat", amount: "100", currency_code: "EUR" });
      const res = await create({ items: oneItem(), discount_id: eurFlat.id });
      expectFields(res, ["discount_id"]);
      expect(res.body.error.errors[0].message).toContain("EUR");
      const percent = await makeDiscount();
      expectFields(
        await create({
          items: oneItem(),
          discount_id: percent.id,
          discount: { description: "x", type: "percentage", amount: "5" },
        }),
        ["discount"],
      );
      expectFields(
        await create({ items: oneItem(), discount: { description: "x", type: "percentage", amount: "101" } }),
        ["discount.amount"],
      );
      expectFields(await create({ items: oneItem(), discount: { description: "x", type: "flat", amount: "1.5" } }), [
        "discount.amount",
      ]);
      expectFields(
        await create({
          items: oneItem(),
          discount: { description: "x", type: "flat", amount: "1", restrict_to: [newId("pri")] },
        }),
        ["discount.restrict_to[0]"],
      );
      const archived = await makeDiscount();
      const r = await call(discountItem.PATCH, "PATCH", `/discounts/${archived.id}`, {
        key: await admin(),
        body: { status: "archived" },
        params: { discount_id: archived.id },
      });
      expect(r.status).toBe(200);
      const res2 = await create({ items: oneItem(), discount_id: archived.id });
      expectError(res2, 400, "entity_archived");
      expect(errorFields(res2)).toEqual(["discount_id"]);
    });

    it("checkout URLs: https only, and for manual collection only with checkout enabled", async () => {
      expectFields(await create({ items: oneItem(), checkout: { url: "http://shop.example.com" } }), ["checkout.url"]);
      expectFields(await create({ items: oneItem(), checkout: { url: "nope" } }), ["checkout.url"]);
      expectFields(
        await create({
          items: oneItem(),
          collection_mode: "manual",
          billing_details: MANUAL_TERMS,
          checkout: { url: "https://shop.example.com/pay" },
        }),
        ["checkout.url"],
      );
      // No URL: the hosted checkout page stands in.
      const t = await makeTransaction({ items: oneItem(), checkout: { url: null } });
      expect(t.checkout).toEqual({ url: `http://localhost:3000/checkout?_ptxn=${t.id}` });
    });

    it("checks billing_details, billing_period and custom_data", async () => {
      const manual = { items: oneItem(), collection_mode: "manual" };
      expectFields(await create({ ...manual, billing_details: {} }), ["billing_details.payment_terms"]);
      expectFields(await create({ ...manual, billing_details: { payment_terms: { interval: "day", frequency: 0 } } }), [
        "billing_details.payment_terms.frequency",
      ]);
      expectFields(
        await create({ ...manual, billing_details: { payment_terms: { interval: "fortnight", frequency: 1 } } }),
        ["billing_details.payment_terms.interval"],
      );
      const long = { ...MANUAL_TERMS, purchase_order_number: "x".repeat(101) };
      expectFields(await create({ ...manual, billing_details: long }), ["billing_details.purchase_order_number"]);
      const ok = await create({
        ...manual,
        billing_details: { ...MANUAL_TERMS, purchase_order_number: "x".repeat(100) },
      });
      expect(ok.status).toBe(201);
      expectFields(
        await create({ ...manual, billing_details: { ...MANUAL_TERMS, additional_information: "x".repeat(1501) } }),
        ["billing_details.additional_information"],
      );
      expectFields(
        await create({
          items: oneItem(),
          billing_period: { starts_at: "2030-02-01T00:00:00Z", ends_at: "2030-01-01T00:00:00Z" },
        }),
        ["billing_period.ends_at"],
      );
      expectFields(await create({ items: oneItem(), billing_period: { starts_at: "soon", ends_at: "later" } }), [
        "billing_period.starts_at",
        "billing_period.ends_at",
      ]);
      expectFields(await create({ items: oneItem(), custom_data: [1] }), ["custom_data"]);
      expectFields(await create({ items: oneItem(), collection_mode: "invoice" }), ["collection_mode"]);
      expectFields(await create({ items: oneItem(), origin: "web" }), ["origin"]);
      expectFields(await create({ items: oneItem(), invoice_number: "1" }), ["invoice_number"]);
    });

    it("answers a body that is not JSON with 400, never 500", async () => {
      const res = await call(collection.POST, "POST", "/transactions", {
        key: await admin(),
        rawBody: "{",
        headers: { "content-type": "application/json" },
      });
      expectError(res, 400, "bad_request");
    });
  });
});

describe("GET /transactions/{transaction_id}", () => {
  it("answers 404 for an unknown or malformed ID", async () => {
    const unknown = newId("txn");
    expectNotFound(await get(unknown), unknown);
    expectNotFound(await get("txn_nope"));
    expectNotFound(await get(newId("ctm")));
    expectNotFound(await update(unknown, { custom_data: null }), unknown);
  });

  it("includes the related entities asked for, in the API family's order", async () => {
    const { customer, address } = await makeBuyer("FR");
    const business = await makeBusiness(customer.id);
    const discount = await makeDiscount();
    const eur = await makePrice({ unit_price: { amount: "1000", currency_code: "EUR" } });
    const t = await makeTransaction({
      items: [{ price_id: eur.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      business_id: business.id,
      discount_id: discount.id,
    });
    const res = await get(
      t.id,
      "?include=discount,customer,business,address,adjustments,adjustments_totals,available_payment_methods",
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    // No adjustments yet: the family leaves the key out ("returned when … the transaction has adjustments").
    expect(Object.keys(d)).toEqual([
      ...FIELDS,
      "address",
      "adjustments_totals",
      "business",
      "customer",
      "discount",
      "available_payment_methods",
    ]);
    expect(d.address).toEqual(address);
    expect(d.business).toEqual(business);
    expect(d.customer).toEqual(customer);
    expect(d.discount).toEqual(discount);
    expect(d.adjustments_totals).toEqual({
      subtotal: "0",
      tax: "0",
      total: "0",
      fee: "0",
      retained_fee: "0",
      earnings: "0",
      breakdown: { credit: "0", refund: "0", chargeback: "0" },
      currency_code: "EUR",
    });
    expect(d.available_payment_methods).toEqual(["card"]);
    // `adjustment` (the PATCH endpoint's name) is `adjustments` too: left out while there are none.
    const singular = await get(t.id, "?include=adjustment");
    expect(Object.keys(singular.body.data)).toEqual(FIELDS);
    expectFields(await get(t.id, "?include=payments"), ["include[0]"]);
  });

  it("includes the customer as it was when added to the transaction", async () => {
    const { customer, address } = await makeBuyer();
    const t = await makeTransaction({ items: oneItem(), customer_id: customer.id, address_id: address.id });
    const renamed = await call(customerItem.PATCH, "PATCH", `/customers/${customer.id}`, {
      key: await admin(),
      body: { name: "New Name" },
      params: { customer_id: customer.id },
    });
    expect(renamed.status).toBe(200);
    expect((await get(t.id, "?include=customer")).body.data.customer.name).toBe("Sam Buyer");
    // Sent again, it is added again, as it is now.
    await update(t.id, { customer_id: customer.id });
    expect((await get(t.id, "?include=customer")).body.data.customer.name).toBe("New Name");
  });

  it("a manual transaction without checkout has no available payment method; what is not related is left out", async () => {
    const t = await makeTransaction({ items: oneItem(), collection_mode: "manual", billing_details: MANUAL_TERMS });
    const d = (await get(t.id, "?include=available_payment_methods,customer,address,business,discount,adjustments"))
      .body.data;
    // As the family: an included entity is "returned when the transaction has" one, never as null.
    expect(Object.keys(d)).toEqual([...FIELDS, "available_payment_methods"]);
    expect(d.available_payment_methods).toEqual([]);
  });
});

describe("PATCH /transactions/{transaction_id}", () => {
  it("replaces the whole item list, recomputes the totals and emits transaction.updated", async () => {
    const t = await makeReady();
    const second = await makePrice({ unit_price: { amount: "250", currency_code: "USD" } });
    const res = await update(t.id, {
      items: [
        { price_id: second.id, quantity: 4 },
        { price_id: price.id, quantity: 1 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const u = res.body.data;
    expect(u.items.map((i: Entity) => [i.price_id, i.quantity])).toEqual([
      [second.id, 4],
      [price.id, 1],
    ]);
    expect(u.details.totals.subtotal).toBe("2000");
    expect(u.details.line_items.map((l: Entity) => l.id)).not.toContain(t.details.line_items[0].id);
    expect(u.status).toBe("ready");
    expect(u.updated_at > t.updated_at).toBe(true);
    const evts = await events(t.id);
    expect(evts.map((e) => e.eventType)).toEqual(["transaction.created", "transaction.ready", "transaction.updated"]);
    expect(evts[2]!.data).toEqual(u);
    expect((await get(t.id)).body.data).toEqual(u);
  });

  it("changes the address and reprices with its country's tax", async () => {
    const t = await makeReady();
    const de = await makeAddress(t.customer_id, { country_code: "DE", postal_code: "10115" });
    const u = (await update(t.id, { address_id: de.id })).body.data;
    expect(u.address_id).toBe(de.id);
    // USD price in Germany: 19%.
    expect(u.details.totals).toMatchObject({ subtotal: "1000", tax: "190", total: "1190" });
    expect(u.details.line_items[0].id).toBe(t.details.line_items[0].id);
  });

  it("edits the other fields; null clears them", async () => {
    const t = await makeReady();
    const business = await makeBusiness(t.customer_id);
    const u = (
      await update(t.id, {
        business_id: business.id,
        custom_data: { a: 1 },
        billing_period: { starts_at: "2031-01-01T00:00:00Z", ends_at: "2031-01-31T00:00:00Z" },
        checkout: { url: "https://example.com/checkout" },
        origin: "web",
      })
    ).body.data;
    expect(u).toMatchObject({ business_id: business.id, custom_data: { a: 1 }, origin: "web" });
    expect(u.checkout.url).toBe(`https://example.com/checkout?_ptxn=${t.id}`);
    const cleared = (await update(t.id, { business_id: null, custom_data: null, billing_period: null, checkout: null }))
      .body.data;
    // The URL given is cleared: the hosted checkout page stands in.
    expect(cleared).toMatchObject({
      business_id: null,
      custom_data: null,
      billing_period: null,
      checkout: { url: `http://localhost:3000/checkout?_ptxn=${t.id}` },
    });
    // Nothing to change is still an update.
    expect((await update(t.id, {})).status).toBe(200);
  });

  it("switching to manual collection applies the manual rules", async () => {
    const t = await makeReady();
    expectFields(await update(t.id, { collection_mode: "manual" }), ["billing_details"]);
    const u = await update(t.id, { collection_mode: "manual", billing_details: MANUAL_TERMS });
    expect(u.status).toBe(200);
    expectFields(await update(t.id, { billing_details: null }), ["billing_details"]);
  });

  it("a new customer needs its own address", async () => {
    const t = await makeReady();
    const other = await makeBuyer();
    const res = await update(t.id, { customer_id: other.customer.id });
    expectFields(res, ["address_id"]);
    const u = await update(t.id, { customer_id: other.customer.id, address_id: other.address.id });
    expect(u.body.data).toMatchObject({ customer_id: other.customer.id, address_id: other.address.id });
  });

  it("a ready transaction keeps its customer and address", async () => {
    const t = await makeReady();
    expectFields(await update(t.id, { customer_id: null, address_id: null }), ["customer_id", "address_id"]);
    expectFields(await update(t.id, { address_id: null }), ["address_id"]);
    const draft = await makeTransaction({ items: oneItem(), customer_id: buyer.customer.id });
    expect((await update(draft.id, { customer_id: null })).body.data.customer_id).toBeNull();
  });

  it("checks a PATCH as a create: item limits, unknown IDs, unknown fields, a currency without prices", async () => {
    const t = await makeReady();
    expectFields(await update(t.id, { items: [] }), ["items"]);
    expectFields(await update(t.id, { items: [{ price_id: newId("pri"), quantity: 1 }] }), ["items[0].price_id"]);
    expectFields(await update(t.id, { discount_id: newId("dsc") }), ["discount_id"]);
    expectFields(await update(t.id, { currency_code: "EUR" }), ["currency_code"]);
    expectFields(await update(t.id, { invoice_number: "X" }), ["invoice_number"]);
    expectFields(await update(t.id, { details: {} }), ["details"]);
  });

  it("applies and removes a discount", async () => {
    const t = await makeReady();
    const discount = await makeDiscount({ amount: "25" });
    const u = (await update(t.id, { discount_id: discount.id })).body.data;
    expect(u.discount_id).toBe(discount.id);
    expect(u.details.totals).toMatchObject({ discount: "250", total: "750" });
    const removed = (await update(t.id, { discount_id: null })).body.data;
    expect(removed.discount_id).toBeNull();
    expect(removed.details.totals).toMatchObject({ discount: "0", total: "1000" });
    const custom = (await update(t.id, { discount: { description: "x", type: "percentage", amount: "50" } })).body.data;
    expect(custom.details.totals.total).toBe("500");
    expect((await update(t.id, { discount: null })).body.data.discount_id).toBeNull();
  });
});

describe("GET /transactions", () => {
  let a: Entity;
  let b: Entity;
  let c: Entity;
  let customerId: string;

  beforeAll(async () => {
    const buyer2 = await makeBuyer();
    customerId = buyer2.customer.id;
    a = await makeTransaction({ items: oneItem(), customer_id: customerId, address_id: buyer2.address.id });
    b = await makeTransaction({
      items: oneItem(),
      customer_id: customerId,
      address_id: buyer2.address.id,
      collection_mode: "manual",
      billing_details: MANUAL_TERMS,
    });
    c = await makeTransaction({ items: oneItem(), customer_id: customerId });
    const billed = await update(b.id, { status: "billed" });
    expect(billed.status).toBe(200);
    b = billed.body.data;
  });

  it("lists in ID order with pagination meta", async () => {
    const res = await list(`?customer_id=${customerId}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([a.id, b.id, c.id]);
    expect(res.body.meta.pagination).toMatchObject({ per_page: 50, has_more: false, estimated_total: 3 });
    expect(res.body.data[1]).toEqual(b);
  });

  it("pages with after and per_page, following next", async () => {
    const walked = await transactions.walk(`?customer_id=${customerId}&per_page=1`);
    expect(walked.ids).toEqual([a.id, b.id, c.id]);
    expect(walked.pages).toBe(3);
    const desc = await list(`?customer_id=${customerId}&order_by=id[DESC]&per_page=2`);
    expect(ids(desc)).toEqual([c.id, b.id]);
    expect(ids(await transactions.follow(desc))).toEqual([a.id]);
  });

  it("filters by id, status, customer, invoice number, collection mode, origin, subscription", async () => {
    const q = `customer_id=${customerId}`;
    expect(ids(await list(`?id=${a.id},${c.id}`))).toEqual([a.id, c.id]);
    expect(ids(await list(`?${q}&status=ready`))).toEqual([a.id]);
    expect(ids(await list(`?${q}&status=draft,billed`))).toEqual([b.id, c.id]);
    expect(ids(await list(`?invoice_number=${b.invoice_number}`))).toEqual([b.id]);
    expect(ids(await list(`?${q}&collection_mode=manual`))).toEqual([b.id]);
    expect(ids(await list(`?${q}&origin=api,web`))).toEqual([a.id, b.id, c.id]);
    expect(ids(await list(`?${q}&origin=web`))).toEqual([]);
    expect(ids(await list(`?subscription_id=${newId("sub")}`))).toEqual([]);
  });

  it("payment_failed (ours): the unresolved payment failures, not those paid since", async () => {
    const buyer = await makeBuyer();
    const made = () =>
      makeTransaction({ items: oneItem(), customer_id: buyer.customer.id, address_id: buyer.address.id });
    const failing = await made();
    const recovered = await made();
    const untouched = await made();
    const declined = { ...TEST_CARD, number: "4000 0000 0000 0002" };
    await payAtCheckout(failing.id, declined);
    await payAtCheckout(recovered.id, declined);
    await payAtCheckout(recovered.id, TEST_CARD);
    const q = `customer_id=${buyer.customer.id}`;
    expect(ids(await list(`?${q}&payment_failed=true`))).toEqual([failing.id]);
    expect(ids(await list(`?${q}&payment_failed=false`))).toEqual([recovered.id, untouched.id]);
    expectFields(await list("?payment_failed=yes"), ["payment_failed"]);
  });

  it("filters by created_at and billed_at ranges ([LT], [LTE], [GT], [GTE], exact)", async () => {
    const q = `customer_id=${customerId}`;
    const enc = encodeURIComponent;
    expect(ids(await list(`?${q}&created_at[GTE]=${enc(b.created_at)}`))).toEqual([b.id, c.id]);
    expect(ids(await list(`?${q}&created_at[GT]=${enc(b.created_at)}`))).toEqual([c.id]);
    expect(ids(await list(`?${q}&created_at[LT]=${enc(b.created_at)}`))).toEqual([a.id]);
    expect(ids(await list(`?${q}&created_at[LTE]=${enc(b.created_at)}`))).toEqual([a.id, b.id]);
    expect(ids(await list(`?${q}&created_at=${enc(b.created_at)}`))).toEqual([b.id]);
    expect(ids(await list(`?${q}&billed_at[GTE]=2000-01-01T00:00:00Z`))).toEqual([b.id]);
    const none = await list(`?${q}&billed_at[LT]=2000-01-01T00:00:00Z`);
    expect(ids(none)).toEqual([]);
    // `next` is a URI (the family's format), also on a last page: the filter's brackets encoded.
    expect(none.body.meta.pagination.next).toContain("billed_at%5BLT%5D=2000-01-01T00%3A00%3A00Z");
    expect(
      ids(await list(`?${q}&created_at[GTE]=2000-01-01T00:00:00Z&created_at[LT]=2999-01-01T00:00:00Z`)),
    ).toHaveLength(3);
    expect(ids(await list(`?${q}&updated_at[GTE]=${enc(b.updated_at)}`))).toContain(b.id);
  });

  it("orders by created_at, updated_at and billed_at with keyset pages", async () => {
    const q = `customer_id=${customerId}`;
    expect(ids(await list(`?${q}&order_by=created_at[DESC]`))).toEqual([c.id, b.id, a.id]);
    expect(ids(await list(`?${q}&order_by=updated_at[DESC]`))[0]).toBe(b.id);
    const byBilled = await transactions.walk(`?${q}&order_by=billed_at[DESC]&per_page=1`);
    expect(byBilled.ids[0]).toBe(b.id);
    expect(new Set(byBilled.ids)).toEqual(new Set([a.id, b.id, c.id]));
    expectFields(await list("?order_by=total[ASC]"), ["order_by"]);
  });

  it("includes related entities in lists", async () => {
    const res = await list(`?customer_id=${customerId}&include=customer,address`);
    expect(res.body.data[0].customer.id).toBe(customerId);
    expect(res.body.data[2]).not.toHaveProperty("address");
  });

  it("refuses bad filters as field errors", async () => {
    // A list's values are named by position.
    expectFields(await list("?status=draft,open"), ["status[1]"]);
    expectFields(await list("?customer_id=nope"), ["customer_id[0]"]);
    expectFields(await list("?created_at[GT]=yesterday"), ["created_at[GT]"]);
    expectFields(await list("?collection_mode=both"), ["collection_mode"]);
    expectFields(await list("?origin=mail"), ["origin[0]"]);
    expectFields(await list("?per_page=0"), ["per_page"]);
    expectFields(await list("?include=everything"), ["include[0]"]);
  });
});

describe("permissions", () => {
  const others = permissionsWithout("transaction.");

  it("POST needs transaction.write", async () => {
    const body = { items: oneItem() };
    await expectPermission((key) => create(body, key), {
      permission: "transaction.write",
      denied: [others, ["transaction.read"]],
      allowed: [["transaction.write", "price.read"], ["transaction.write"]],
      status: 201,
    });
  });

  it("GET needs transaction.read (write implies read)", async () => {
    const t = await makeReady();
    await expectPermission((key) => get(t.id, "", key), {
      permission: "transaction.read",
      denied: [others],
      allowed: [["transaction.read"], ["transaction.write"]],
    });
    await expectPermission((key) => list("", key), {
      permission: "transaction.read",
      denied: [others],
      allowed: [["transaction.read"], ["transaction.write"]],
    });
  });

  it("PATCH needs transaction.write", async () => {
    const t = await makeReady();
    await expectForbidden(
      (key) => update(t.id, { custom_data: null }, key),
      [others, ["transaction.read"]],
      "transaction.write",
    );
    await expectAllowed((key) => update(t.id, { custom_data: null }, key), [["transaction.write"]], 200);
  });

  it("a request without a key is 401", async () => {
    expectError(await list("", null), 401, "invalid_token");
    expectError(await create({ items: oneItem() }, null), 401, "invalid_token");
  });

  it("answers 405 for methods the paths lack", async () => {
    await expectMethodsNotAllowed(collection, ["PUT", "PATCH", "DELETE"], "/transactions");
    const id = newId("txn");
    await expectMethodsNotAllowed(item, ["PUT", "POST", "DELETE"], `/transactions/${id}`, { transaction_id: id });
  });
});

it("never answers 500 for field errors: expectFieldError names the field", async () => {
  expectFieldError(await create({ items: [{ price_id: price.id, quantity: 1, extra: true }] }), "items[0].extra");
});
