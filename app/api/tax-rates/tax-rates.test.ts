/**
 * GET /tax-rates, GET, PUT and DELETE /tax-rates/{country_code} through the real route handlers
 * on a real database: the merchant's overrides of the standard rates, and their effect on new
 * transactions (and none on existing ones).
 */
import { describe, expect, it } from "vitest";
import { STANDARD_TAX_RATES } from "@/lib/billing/tax-rates";
import { call, expectError, expectFieldError, expectNotFound } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin, type Key, keyOf } from "@/lib/dev/test/resource";
import { makeBuyer, makePrice, makeReady, transactions } from "@/lib/dev/test/transactions";
import * as preview from "../transactions/preview/route";
import * as item from "./[country_code]/route";
import * as collection from "./route";

async function list(queryString = "", key?: Key) {
  return call(collection.GET, "GET", `/tax-rates${queryString}`, { key: await keyOf(key) });
}

async function get(country: string, key?: Key) {
  return call(item.GET, "GET", `/tax-rates/${country}`, { key: await keyOf(key), params: { country_code: country } });
}

async function put(country: string, body: unknown, key?: Key) {
  return call(item.PUT, "PUT", `/tax-rates/${country}`, {
    key: await keyOf(key),
    body,
    params: { country_code: country },
  });
}

async function remove(country: string, key?: Key) {
  return call(item.DELETE, "DELETE", `/tax-rates/${country}`, {
    key: await keyOf(key),
    params: { country_code: country },
  });
}

async function previewTotals(priceId: string, country: string) {
  const res = await call(preview.POST, "POST", "/transactions/preview", {
    key: await admin(),
    body: { items: [{ price_id: priceId, quantity: 1 }], address: { country_code: country } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.details;
}

describe("GET /tax-rates", () => {
  it("lists every country of the standard table, by country code, in one page", async () => {
    const res = await list();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const codes = res.body.data.map((r: { country_code: string }) => r.country_code);
    expect(codes).toEqual(Object.keys(STANDARD_TAX_RATES).sort());
    expect(res.body.data.find((r: { country_code: string }) => r.country_code === "DE")).toEqual({
      country_code: "DE",
      standard_rate: "0.19",
      rate: "0.19",
      overridden: false,
      updated_at: null,
    });
    expect(res.body.meta.pagination).toMatchObject({ has_more: false, estimated_total: codes.length });
  });

  it("filters by country_code (a list, any case), and lists overridden countries outside the table", async () => {
    expect((await put("BR", { rate: "0.17" })).status).toBe(200);
    const res = await list("?country_code=fr,BR");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject([
      { country_code: "BR", standard_rate: null, rate: "0.17", overridden: true },
      { country_code: "FR", standard_rate: "0.2", rate: "0.2", overridden: false },
    ]);
    expect((await list()).body.data.map((r: { country_code: string }) => r.country_code)).toContain("BR");
    expectFieldError(await list("?country_code=XX"), "country_code[0]");
    await remove("BR");
  });

  it("needs settings.read", async () => {
    await expectPermission((key) => list("", key), {
      permission: "settings.read",
      denied: [permissionsWithout("settings.")],
      allowed: [["settings.read"], ["settings.write"]],
    });
    expectError(await list("", null), 401, "invalid_token");
  });

  it("has only GET", async () => {
    await expectMethodsNotAllowed(collection, ["POST", "PUT", "PATCH", "DELETE"], "/tax-rates");
  });
});

describe("PUT /tax-rates/{country_code}", () => {
  it("overrides the rate (canonical decimal fraction) and GET answers it", async () => {
    const res = await put("DE", { rate: "0.070" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ country_code: "DE", standard_rate: "0.19", rate: "0.07", overridden: true });
    expect(res.body.data.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect((await get("de")).body.data).toEqual(res.body.data);
    expect((await put("DE", { rate: "0.0725" })).body.data.rate).toBe("0.0725");
    expect((await put("DE", { rate: "0" })).body.data.rate).toBe("0");
    expect((await put("DE", { rate: "1" })).body.data.rate).toBe("1");
    await remove("DE");
  });

  it("refuses rates that are not a fraction from 0 to 1 with at most 6 decimals, naming rate", async () => {
    for (const rate of ["1.01", "-0.1", "20", "20%", "0.1234567", "", "abc", " 0.2"]) {
      expectFieldError(await put("DE", { rate }), "rate");
    }
    expectFieldError(await put("DE", { rate: 0.2 }), "rate");
    expectFieldError(await put("DE", {}), "rate");
    expectFieldError(await put("DE", { rate: "0.2", note: "x" }), "note");
    expect((await get("DE")).body.data.overridden).toBe(false);
  });

  it("answers 404 for a code that is no country", async () => {
    expectNotFound(await put("XX", { rate: "0.1" }), "XX");
    expectNotFound(await get("XX"), "XX");
    expectNotFound(await remove("XX"), "XX");
    expectNotFound(await get("DEU"), "DEU");
  });

  it("needs settings.write", async () => {
    await expectPermission((key) => put("AT", { rate: "0.2" }, key), {
      permission: "settings.write",
      denied: [["settings.read"], permissionsWithout("settings.")],
      allowed: [["settings.write"]],
    });
    await remove("AT");
  });

  it("prices new previews with the new rate, and never changes an existing transaction", async () => {
    const price = await makePrice({ unit_price: { amount: "1000", currency_code: "EUR" } });
    const { customer, address } = await makeBuyer("IE");
    const before = await makeReady({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
    });
    expect(before.details.totals).toMatchObject({ subtotal: "1000", tax: "230", total: "1230" });
    expect((await previewTotals(price.id, "IE")).totals).toMatchObject({ tax: "230", total: "1230" });

    expect((await put("IE", { rate: "0.135" })).status).toBe(200);
    const changed = await previewTotals(price.id, "IE");
    expect(changed.totals).toMatchObject({ subtotal: "1000", tax: "135", total: "1135" });
    expect(changed.line_items[0].tax_rate).toBe("0.135");
    expect(changed.tax_rates_used).toMatchObject([{ tax_rate: "0.135" }]);

    const again = await transactions.get(before.id);
    expect(again.body.data.details).toEqual(before.details);

    expect((await remove("IE")).body.data).toMatchObject({ rate: "0.23", overridden: false });
    expect((await previewTotals(price.id, "IE")).totals).toMatchObject({ tax: "230" });
  });
});

describe("DELETE /tax-rates/{country_code}", () => {
  it("resets the country to its standard rate; again is no error", async () => {
    await put("FR", { rate: "0.1" });
    const res = await remove("FR");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      country_code: "FR",
      standard_rate: "0.2",
      rate: "0.2",
      overridden: false,
      updated_at: null,
    });
    expect((await remove("FR")).status).toBe(200);
  });

  it("needs settings.write", async () => {
    await expectPermission((key) => remove("FR", key), {
      permission: "settings.write",
      denied: [["settings.read"], permissionsWithout("settings.")],
      allowed: [["settings.write"]],
    });
  });

  it("has no POST or PATCH", async () => {
    await expectMethodsNotAllowed(item, ["POST", "PATCH"], "/tax-rates/DE", { country_code: "DE" });
  });
});
