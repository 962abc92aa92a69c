/**
 * POST /transactions/preview: a transaction's totals without saving anything, through the real
 * route handler on a real database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/connection";
import { call, errorFields, expectError } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import {
  archivePrice,
  makeBuyer,
  makeCustomer,
  makeDiscount,
  makePrice,
  makeProduct,
} from "@/lib/dev/test/transactions";
import { newId } from "@/lib/ids";
import * as preview from "./route";

type Entity = Record<string, any>;

async function send(body: unknown, key?: string | null) {
  return call(preview.POST, "POST", "/transactions/preview", { key: key === undefined ? await admin() : key, body });
}

let price: Entity;

beforeAll(async () => {
  price = await makePrice({ unit_price: { amount: "1999", currency_code: "GBP" } });
});

describe("POST /transactions/preview", () => {
  it("prices the items for an address, in the API family's shape, and saves nothing", async () => {
    const before = await db().event.count();
    const res = await send({
      items: [{ price_id: price.id, quantity: 3 }],
      address: { country_code: "GB", postal_code: "SW1A 1AA" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body.data;
    expect(Object.keys(p)).toEqual([
      "customer_id",
      "address_id",
      "business_id",
      "currency_code",
      "discount_id",
      "customer_ip_address",
      "address",
      "ignore_trials",
      "items",
      "details",
      "available_payment_methods",
    ]);
    expect(p).toMatchObject({
      customer_id: null,
      address_id: null,
      currency_code: "GBP",
      address: { postal_code: "SW1A 1AA", country_code: "GB" },
      ignore_trials: false,
      available_payment_methods: ["card"],
    });
    expect(p.items).toEqual([{ price, quantity: 3, include_in_totals: true, proration: null }]);
    expect(Object.keys(p.details)).toEqual(["tax_rates_used", "totals", "line_items"]);
    expect(p.details.totals).toMatchObject({ subtotal: "5997", tax: "1199", total: "7196", fee: null, earnings: null });
    expect(p.details.line_items[0]).toMatchObject({ price_id: price.id, quantity: 3, tax_rate: "0.2" });
    expect(p.details.line_items[0].product.id).toBe(price.product_id);
    expect(await db().event.count()).toBe(before);
    expect(await db().transaction.count()).toBe(0);
  });

  it("uses a stored address, a discount, and leaves out items not included in the totals", async () => {
    const { customer, address } = await makeBuyer("DE");
    const eur = await makePrice({ unit_price: { amount: "1000", currency_code: "EUR" } });
    const extra = await makePrice({ unit_price: { amount: "500", currency_code: "EUR" } });
    const discount = await makeDiscount({ amount: "50" });
    const res = await send({
      items: [
        { price_id: eur.id, quantity: 2 },
        { price_id: extra.id, quantity: 1, include_in_totals: false },
      ],
      customer_id: customer.id,
      address_id: address.id,
      discount_id: discount.id,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body.data;
    expect(p).toMatchObject({ customer_id: customer.id, address_id: address.id, discount_id: discount.id });
    expect(p.address).toEqual({ postal_code: "10115", country_code: "DE" });
    expect(p.items.map((i: Entity) => i.include_in_totals)).toEqual([true, false]);
    expect(p.details.line_items).toHaveLength(1);
    // 2000 − 50% = 1000; 19% = 190.
    expect(p.details.totals).toMatchObject({ subtotal: "2000", discount: "1000", tax: "190", total: "1190" });
  });

  it("prices non-catalogue items and discounts without creating them", async () => {
    const product = await makeProduct();
    const res = await send({
      items: [
        {
          price: { description: "Custom", product_id: product.id, unit_price: { amount: "700", currency_code: "USD" } },
          quantity: 2,
        },
        {
          price: {
            description: "New",
            product: { name: "Brand new", tax_category: "saas" },
            unit_price: { amount: "300", currency_code: "USD" },
          },
          quantity: 1,
        },
      ],
      discount: { description: "Promo", type: "flat", amount: "200" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body.data;
    expect(p.items[0].price).toMatchObject({ id: null, product_id: product.id, type: "custom" });
    expect(p.details.line_items[1].product).toMatchObject({ id: null, name: "Brand new", type: "custom" });
    expect(p.details.totals).toMatchObject({ subtotal: "1700", discount: "200", total: "1500" });
    expect(await db().price.count({ where: { type: "custom" } })).toBe(0);
    expect(await db().discount.count({ where: { mode: "custom" } })).toBe(0);
  });

  it("charges nothing for a trial unless trials are ignored", async () => {
    const trial = await makePrice({
      billing_cycle: { interval: "month", frequency: 1 },
      trial_period: { interval: "day", frequency: 7 },
    });
    const body = { items: [{ price_id: trial.id, quantity: 1 }] };
    expect((await send(body)).body.data.details.totals.total).toBe("0");
    const ignored = await send({ ...body, ignore_trials: true });
    expect(ignored.body.data).toMatchObject({ ignore_trials: true });
    expect(ignored.body.data.details.totals.total).toBe("1000");
  });

  it("refuses bad input with field errors", async () => {
    const expectFields = (res: Awaited<ReturnType<typeof send>>, fields: string[]) => {
      expectError(res, 400, "invalid_field");
      expect(new Set(errorFields(res))).toEqual(new Set(fields));
    };
    expectFields(await send({ items: [] }), ["items"]);
    expectFields(await send({ items: [{ price_id: newId("pri"), quantity: 1 }] }), ["items[0].price_id"]);
    expectFields(await send({ items: [{ price_id: price.id, quantity: 0 }] }), ["items[0].quantity"]);
    expectFields(await send({ items: [{ price_id: price.id, quantity: 1 }], currency_code: "USD" }), [
      "items[0].price_id",
    ]);
    expectFields(await send({ items: [{ price_id: price.id, quantity: 1 }], address: { country_code: "ZZ" } }), [
      "address.country_code",
    ]);
    const { address } = await makeBuyer();
    const other = await makeCustomer();
    expectFields(
      await send({ items: [{ price_id: price.id, quantity: 1 }], customer_id: other.id, address_id: address.id }),
      ["address_id"],
    );
    expectFields(
      await send({
        items: [{ price_id: price.id, quantity: 1 }],
        address_id: address.id,
        address: { country_code: "US" },
      }),
      ["address"],
    );
    expectFields(await send({ items: [{ price_id: price.id, quantity: 1 }], customer_ip_address: "1.2.3" }), [
      "customer_ip_address",
    ]);
    const archived = await makePrice();
    await archivePrice(archived.id);
    expectError(await send({ items: [{ price_id: archived.id, quantity: 1 }] }), 400, "entity_archived");
  });

  it("needs transaction.read; 405 for other methods", async () => {
    const body = { items: [{ price_id: price.id, quantity: 1 }] };
    await expectPermission((key) => send(body, key), {
      permission: "transaction.read",
      denied: [permissionsWithout("transaction.")],
      allowed: [["transaction.read"], ["transaction.write"]],
    });
    expectError(await send(body, null), 401, "invalid_token");
    await expectMethodsNotAllowed(preview, ["GET", "PUT", "PATCH", "DELETE"], "/transactions/preview");
  });
});
