/**
 * GET and PATCH /account-settings through the real route handlers on a real database: the
 * merchant details and the tax mode, stored in `settings` under the keys the invoice reads.
 */
import { describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError } from "@/lib/dev/test/api";
import { expectMaxLength, expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin, type Key, keyOf } from "@/lib/dev/test/resource";
import { makePrice } from "@/lib/dev/test/transactions";
import * as preview from "../transactions/preview/route";
import * as settings from "./route";

async function get(key?: Key) {
  return call(settings.GET, "GET", "/account-settings", { key: await keyOf(key) });
}

async function patch(body: unknown, key?: Key) {
  return call(settings.PATCH, "PATCH", "/account-settings", { key: await keyOf(key), body });
}

async function stored(): Promise<Record<string, string>> {
  const rows = await query<{ key: string; value: string }>("SELECT key, value FROM settings");
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}

describe("GET /account-settings", () => {
  it("answers the defaults when nothing is set", async () => {
    const res = await get();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      merchant_name: "Your company",
      merchant_address: null,
      merchant_tax_number: null,
      merchant_email: null,
      bank_transfer_instructions: null,
      tax_mode: "external",
      default_currency_code: "USD",
      timezone: "UTC",
      portal_plan_price_ids: [],
      logo_url: null,
      updated_at: null,
    });
  });

  it("needs settings.read (settings.write implies it)", async () => {
    await expectPermission((key) => get(key), {
      permission: "settings.read",
      denied: [permissionsWithout("settings."), []],
      allowed: [["settings.read"], ["settings.write"]],
    });
  });

  it("needs a key", async () => {
    expectError(await get(null), 401, "invalid_token");
  });
});

describe("PATCH /account-settings", () => {
  it("stores each field under its settings key and answers the settings", async () => {
    const res = await patch({
      merchant_name: "Acme Ltd",
      merchant_address: "1 High Street\nLondon\nSW1A 1AA",
      merchant_tax_number: "GB123456789",
      merchant_email: "billing@acme.example",
      tax_mode: "internal",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      merchant_name: "Acme Ltd",
      merchant_address: "1 High Street\nLondon\nSW1A 1AA",
      merchant_tax_number: "GB123456789",
      merchant_email: "billing@acme.example",
      tax_mode: "internal",
    });
    expect(res.body.data.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(await stored()).toMatchObject({
      merchant_name: "Acme Ltd",
      merchant_address: "1 High Street\nLondon\nSW1A 1AA",
      merchant_tax_number: "GB123456789",
      merchant_email: "billing@acme.example",
      account_tax_mode: "internal",
    });
    expect((await get()).body.data).toEqual(res.body.data);
  });

  it("changes only the fields sent; null or blank removes a value, back to its default", async () => {
    await patch({ merchant_name: "Acme Ltd", merchant_tax_number: "GB1", merchant_email: "a@b.example" });
    const res = await patch({ merchant_tax_number: "  ", merchant_email: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ merchant_name: "Acme Ltd", merchant_tax_number: null, merchant_email: null });
    const keys = await stored();
    expect(keys.merchant_tax_number).toBeUndefined();
    expect(keys.merchant_email).toBeUndefined();
    expect((await patch({ merchant_name: null })).body.data.merchant_name).toBe("Your company");
  });

  it("the tax mode prices new previews: internal takes the tax out of the price", async () => {
    const price = await makePrice({
      tax_mode: "account_setting",
      unit_price: { amount: "1200", currency_code: "GBP" },
    });
    const send = async () =>
      call(preview.POST, "POST", "/transactions/preview", {
        key: await admin(),
        body: { items: [{ price_id: price.id, quantity: 1 }], address: { country_code: "GB" } },
      });
    await patch({ tax_mode: "external" });
    expect((await send()).body.data.details.totals).toMatchObject({ subtotal: "1200", tax: "240", total: "1440" });
    await patch({ tax_mode: "internal" });
    expect((await send()).body.data.details.totals).toMatchObject({ subtotal: "1000", tax: "200", total: "1200" });
    await patch({ tax_mode: "external" });
  });

  it("checks each field's limits, naming the field", async () => {
    await expectMaxLength((v) => patch({ merchant_name: v }), "merchant_name", 200, { status: 200 });
    expectFieldError(await patch({ merchant_name: "" }), "merchant_name");
    expectFieldError(await patch({ merchant_name: "   " }), "merchant_name");
    await expectMaxLength((v) => patch({ merchant_address: v }), "merchant_address", 1000, { status: 200 });
    await expectMaxLength((v) => patch({ merchant_tax_number: v }), "merchant_tax_number", 100, { status: 200 });
    expectFieldError(await patch({ merchant_email: "not an email" }), "merchant_email");
    expectFieldError(await patch({ bank_transfer_instructions: "x".repeat(2001) }), "bank_transfer_instructions");
    expectFieldError(await patch({ bank_transfer_instructions: 7 }), "bank_transfer_instructions");
    expectFieldError(await patch({ merchant_email: `${"a".repeat(315)}@b.example` }), "merchant_email");
    expectFieldError(await patch({ tax_mode: "account_setting" }), "tax_mode");
    expectFieldError(await patch({ merchant_name: 5 }), "merchant_name");
    expectFieldError(await patch({ colour: "red" }), "colour");
    for (const code of ["XXX", "usd", "", 5, "USD\ud800", "U".repeat(10_000), { code: "USD" }]) {
      expectFieldError(await patch({ default_currency_code: code }), "default_currency_code");
    }
    for (const zone of [
      "Mars/Olympus",
      "Europe/Londres",
      "",
      "../etc/passwd",
      3,
      "UTC\ud800",
      "Z".repeat(100_000),
      [["UTC"]],
    ]) {
      expectFieldError(await patch({ timezone: zone }), "timezone");
    }
  });

  it("stores the default currency and the time zone; null goes back to USD and UTC", async () => {
    const res = await patch({ default_currency_code: "EUR", timezone: "Pacific/Auckland" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ default_currency_code: "EUR", timezone: "Pacific/Auckland" });
    expect(await stored()).toMatchObject({ default_currency_code: "EUR", timezone: "Pacific/Auckland" });
    const cleared = await patch({ default_currency_code: null, timezone: null });
    expect(cleared.body.data).toMatchObject({ default_currency_code: "USD", timezone: "UTC" });
  });

  it("a stored value this runtime does not know reads as the default, never a 500", async () => {
    await query(
      `INSERT INTO settings (key, value) VALUES ('timezone', 'Nowhere/Gone'), ('default_currency_code', 'XYZ')
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
    );
    expect((await get()).body.data).toMatchObject({ default_currency_code: "USD", timezone: "UTC" });
    await patch({ default_currency_code: null, timezone: null });
  });

  it("needs settings.write", async () => {
    await expectPermission((key) => patch({ merchant_name: "Acme" }, key), {
      permission: "settings.write",
      denied: [["settings.read"], permissionsWithout("settings.")],
      allowed: [["settings.write"]],
    });
  });

  it("has no POST, PUT or DELETE", async () => {
    await expectMethodsNotAllowed(settings, ["POST", "PUT", "DELETE"], "/account-settings");
  });
});

describe("portal_plan_price_ids (the plans customers may switch between in the portal)", () => {
  it("stores recurring prices in order, answers them, and an empty list or null removes them", async () => {
    const cycle = { billing_cycle: { interval: "month", frequency: 1 } };
    const monthly = await makePrice(cycle);
    const yearly = await makePrice({
      billing_cycle: { interval: "year", frequency: 1 },
      product_id: monthly.product_id,
    });
    const res = await patch({ portal_plan_price_ids: [yearly.id, monthly.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.portal_plan_price_ids).toEqual([yearly.id, monthly.id]);
    expect(JSON.parse((await stored()).portal_plan_price_ids!)).toEqual([yearly.id, monthly.id]);
    expect((await patch({ merchant_name: "Other" })).body.data.portal_plan_price_ids).toEqual([yearly.id, monthly.id]);
    expect((await patch({ portal_plan_price_ids: [] })).body.data.portal_plan_price_ids).toEqual([]);
    expect((await stored()).portal_plan_price_ids).toBeUndefined();
    await patch({ portal_plan_price_ids: [monthly.id] });
    expect((await patch({ portal_plan_price_ids: null })).body.data.portal_plan_price_ids).toEqual([]);
  });

  it("refuses unknown and one-time prices naming the entry, bad IDs, repeats and too many; a bad stored value reads as none", async () => {
    const oneTime = await makePrice();
    const monthly = await makePrice({ billing_cycle: { interval: "month", frequency: 1 } });
    expectFieldError(await patch({ portal_plan_price_ids: [monthly.id, oneTime.id] }), "portal_plan_price_ids[1]");
    const unknown = `pri_${"0".repeat(26)}`;
    expectFieldError(await patch({ portal_plan_price_ids: [unknown] }), "portal_plan_price_ids[0]");
    for (const value of ["pri_x", 5, [5], ["ctm_01h0000000000000000000000"], [monthly.id, monthly.id]]) {
      const res = await patch({ portal_plan_price_ids: Array.isArray(value) ? value : value });
      expect(res.status, JSON.stringify(value)).toBe(400);
      expect(res.body.error.code).toBe("invalid_field");
    }
    const many = Array.from({ length: 51 }, (_, i) => `pri_${String(i).padStart(26, "0")}`);
    expectFieldError(await patch({ portal_plan_price_ids: many }), "portal_plan_price_ids");
    expect((await get()).body.data.portal_plan_price_ids).toEqual([]);
    await query("INSERT INTO settings (key, value) VALUES ('portal_plan_price_ids', 'not json')");
    expect((await get()).body.data.portal_plan_price_ids).toEqual([]);
  });
});
