/**
 * `tax_mode: "location"` end to end: a price created with it is tax-inclusive for a customer in
 * Germany and tax-exclusive for one in the United States (lib/billing/tax-inclusive-countries.ts),
 * in previews, pricing previews and real transactions alike (one totals engine).
 */
import { describe, expect, it } from "vitest";
import * as pricingPreview from "@/app/api/pricing-preview/route";
import * as taxRate from "@/app/api/tax-rates/[country_code]/route";
import * as preview from "@/app/api/transactions/preview/route";
import { call, expectFieldError } from "@/lib/dev/test/api";
import { admin } from "@/lib/dev/test/resource";
import { makeBuyer, makePrice, makeProduct, makeTransaction } from "@/lib/dev/test/transactions";
import * as item from "./[price_id]/route";
import * as collection from "./route";

async function locationPrice() {
  return makePrice({ tax_mode: "location", unit_price: { amount: "11900", currency_code: "USD" } });
}

describe("tax_mode location", () => {
  it("is accepted on create and update, and returned as sent", async () => {
    const price = await locationPrice();
    expect(price.tax_mode).toBe("location");
    const other = await makePrice({ tax_mode: "external" });
    const res = await call(item.PATCH, "PATCH", `/prices/${other.id}`, {
      key: await admin(),
      params: { price_id: other.id },
      body: { tax_mode: "location" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.tax_mode).toBe("location");
  });

  it("other values are still refused", async () => {
    const product = await makeProduct();
    const res = await call(collection.POST, "POST", "/prices", {
      key: await admin(),
      body: {
        product_id: product.id,
        description: "x",
        unit_price: { amount: "1", currency_code: "USD" },
        tax_mode: "country",
      },
    });
    expectFieldError(res, "tax_mode");
  });

  it("a DE customer's transaction includes 19% VAT; a US customer's adds the US rate on top", async () => {
    const key = await admin();
    const set = await call(taxRate.PUT, "PUT", "/tax-rates/US", {
      key,
      params: { country_code: "US" },
      body: { rate: "0.1" },
    });
    expect(set.status, JSON.stringify(set.body)).toBeLessThan(300);
    const price = await locationPrice();

    const de = await makeBuyer("DE");
    const deTxn = await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: de.customer.id,
      address_id: de.address.id,
    });
    expect(deTxn.details.line_items[0].totals).toEqual({
      subtotal: "10000",
      discount: "0",
      tax: "1900",
      total: "11900",
    });
    expect(deTxn.details.totals).toMatchObject({
      subtotal: "10000",
      tax: "1900",
      total: "11900",
      grand_total: "11900",
    });

    const us = await makeBuyer("US");
    const usTxn = await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: us.customer.id,
      address_id: us.address.id,
    });
    expect(usTxn.details.line_items[0].totals).toEqual({
      subtotal: "11900",
      discount: "0",
      tax: "1190",
      total: "13090",
    });
    expect(usTxn.details.totals).toMatchObject({ subtotal: "11900", tax: "1190", total: "13090" });

    // Previews agree with the transactions.
    for (const [country, total] of [
      ["DE", "11900"],
      ["US", "13090"],
    ] as const) {
      const res = await call(preview.POST, "POST", "/transactions/preview", {
        key,
        body: {
          items: [{ price_id: price.id, quantity: 1 }],
          address: { country_code: country, postal_code: "10115" },
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.details.totals.total).toBe(total);
      const pricing = await call(pricingPreview.POST, "POST", "/pricing-preview", {
        key,
        body: {
          items: [{ price_id: price.id, quantity: 1 }],
          address: { country_code: country, postal_code: "10115" },
        },
      });
      expect(pricing.status, JSON.stringify(pricing.body)).toBe(200);
      expect(pricing.body.data.details.line_items[0].totals.total).toBe(total);
    }
  });
});
