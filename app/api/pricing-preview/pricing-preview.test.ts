/**
 * POST /pricing-preview: localized prices for a pricing page, each item priced on its own, with
 * formatted amounts; through the real route handler on a real database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call, errorFields, expectError } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { makeBuyer, makeDiscount, makePrice } from "@/lib/dev/test/transactions";
import { newId } from "@/lib/ids";
import * as pricing from "./route";

type Entity = Record<string, any>;

async function send(body: unknown, key?: string | null) {
  return call(pricing.POST, "POST", "/pricing-preview", { key: key === undefined ? await admin() : key, body });
}

let monthly: Entity;
let yearly: Entity;

beforeAll(async () => {
  monthly = await makePrice({
    unit_price: { amount: "1000", currency_code: "USD" },
    billing_cycle: { interval: "month", frequency: 1 },
    unit_price_overrides: [{ country_codes: ["DE", "FR"], unit_price: { amount: "900", currency_code: "EUR" } }],
  });
  yearly = await makePrice({
    unit_price: { amount: "10000", currency_code: "USD" },
    billing_cycle: { interval: "year", frequency: 1 },
    unit_price_overrides: [{ country_codes: ["DE"], unit_price: { amount: "9000", currency_code: "EUR" } }],
  });
});

describe("POST /pricing-preview", () => {
  it("prices each item for the country, in its currency, with formatted totals", async () => {
    const res = await send({
      items: [
        { price_id: monthly.id, quantity: 1 },
        { price_id: yearly.id, quantity: 2 },
      ],
      address: { country_code: "DE", postal_code: "10115" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body.data;
    expect(Object.keys(p)).toEqual([
      "customer_id",
      "address_id",
      "business_id",
      "currency_code",
      "discount_id",
      "address",
      "customer_ip_address",
      "items",
      "details",
      "available_payment_methods",
    ]);
    expect(p).toMatchObject({ currency_code: "EUR", address: { country_code: "DE", postal_code: "10115" } });
    expect(p.items).toEqual([
      { price_id: monthly.id, quantity: 1 },
      { price_id: yearly.id, quantity: 2 },
    ]);
    const [a, b] = p.details.line_items;
    expect(Object.keys(a)).toEqual([
      "price",
      "quantity",
      "tax_rate",
      "unit_totals",
      "formatted_unit_totals",
      "totals",
      "formatted_totals",
      "product",
      "discounts",
    ]);
    expect(a.price).toEqual(monthly);
    expect(a.tax_rate).toBe("0.19");
    expect(a.totals).toEqual({ subtotal: "900", discount: "0", tax: "171", total: "1071" });
    expect(a.formatted_totals).toEqual({ subtotal: "€9.00", discount: "€0.00", tax: "€1.71", total: "€10.71" });
    expect(b.totals).toEqual({ subtotal: "18000", discount: "0", tax: "3420", total: "21420" });
    expect(b.unit_totals).toEqual({ subtotal: "9000", discount: "0", tax: "1710", total: "10710" });
    expect(b.formatted_unit_totals.total).toBe("€107.10");
    expect(b.formatted_totals.total).toBe("€214.20");
    expect(a.discounts).toEqual([]);
    expect(a.product.id).toBe(monthly.product_id);
  });

  it("without an address: the base prices, no tax", async () => {
    const res = await send({ items: [{ price_id: monthly.id, quantity: 1 }] });
    expect(res.body.data).toMatchObject({ currency_code: "USD", address: null });
    expect(res.body.data.details.line_items[0].formatted_totals.total).toBe("$10.00");
  });

  it("a stored address and a discount: each line gets its own discount entry", async () => {
    const { customer, address } = await makeBuyer("FR");
    const discount = await makeDiscount({ amount: "20", restrict_to: [monthly.id] });
    const body = { customer_id: customer.id, address_id: address.id, discount_id: discount.id };
    const res = await send({ ...body, items: [{ price_id: monthly.id, quantity: 1 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ ...body, currency_code: "EUR" });
    const [a] = res.body.data.details.line_items;
    // 900 − 20% = 720; French VAT 20% = 144.
    expect(a.totals).toEqual({ subtotal: "900", discount: "180", tax: "144", total: "864" });
    expect(a.discounts).toEqual([{ discount, total: "180", formatted_total: "€1.80" }]);
    // The restriction leaves the yearly price undiscounted; priced in USD (no override for France).
    const yearlyUsd = await send({ ...body, items: [{ price_id: yearly.id, quantity: 1 }] });
    expect(yearlyUsd.body.data.currency_code).toBe("USD");
    expect(yearlyUsd.body.data.details.line_items[0].discounts).toEqual([]);
    // Both together: the yearly price has no unit price in EUR for France.
    const both = await send({
      ...body,
      items: [
        { price_id: monthly.id, quantity: 1 },
        { price_id: yearly.id, quantity: 1 },
      ],
    });
    expectError(both, 400, "invalid_field");
    expect(errorFields(both)).toEqual(["items[1].price_id"]);
  });

  it("refuses bad input with field errors, and JPY formats without decimals", async () => {
    const expectFields = (res: Awaited<ReturnType<typeof send>>, fields: string[]) => {
      expectError(res, 400, "invalid_field");
      expect(new Set(errorFields(res))).toEqual(new Set(fields));
    };
    expectFields(await send({ items: [] }), ["items"]);
    expectFields(await send({ items: [{ price_id: newId("pri"), quantity: 1 }] }), ["items[0].price_id"]);
    expectFields(await send({ items: [{ price: {}, quantity: 1 }] }), ["items[0].price_id", "items[0].price"]);
    expectFields(await send({ items: [{ price_id: monthly.id, quantity: 1 }], currency_code: "GBP" }), [
      "items[0].price_id",
    ]);
    expectFields(await send({ items: [{ price_id: monthly.id, quantity: 1 }], discount_id: "dsc_1" }), ["discount_id"]);
    const yen = await makePrice({ unit_price: { amount: "1500", currency_code: "JPY" } });
    const res = await send({ items: [{ price_id: yen.id, quantity: 1 }] });
    expect(res.body.data.details.line_items[0].formatted_totals.total).toBe("¥1,500");
  });

  it("needs transaction.read; 405 for other methods", async () => {
    const body = { items: [{ price_id: monthly.id, quantity: 1 }] };
    await expectPermission((key) => send(body, key), {
      permission: "transaction.read",
      denied: [permissionsWithout("transaction.")],
      allowed: [["transaction.read"], ["transaction.write"]],
    });
    await expectMethodsNotAllowed(pricing, ["GET", "PUT", "PATCH", "DELETE"], "/pricing-preview");
  });
});
