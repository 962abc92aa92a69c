/**
 * Transaction totals through the API (spec: Transaction `details`): realistic baskets with
 * tax-exclusive and tax-inclusive prices, discounts, the merchant's tax rates and the account's tax
 * mode. Expected amounts are worked out by hand here, independently of the engine.
 */
import { describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { makeBuyer, makeDiscount, makePrice, makeTransaction, transactions } from "@/lib/dev/test/transactions";

type Entity = Record<string, any>;

const FOUR = ["subtotal", "discount", "tax", "total"] as const;

/** The sums of the line items' totals equal the transaction's, and each line adds up. */
function expectConsistent(details: Entity) {
  for (const field of FOUR) {
    const sum = details.line_items.reduce((acc: bigint, line: Entity) => acc + BigInt(line.totals[field]), 0n);
    expect(sum.toString(), field).toBe(details.totals[field]);
    const byRate = details.tax_rates_used.reduce((acc: bigint, r: Entity) => acc + BigInt(r.totals[field]), 0n);
    expect(byRate.toString(), `tax_rates_used ${field}`).toBe(details.totals[field]);
  }
  for (const line of details.line_items) {
    const { subtotal, discount, tax, total } = line.totals;
    expect(BigInt(subtotal) - BigInt(discount) + BigInt(tax)).toBe(BigInt(total));
  }
  const t = details.totals;
  expect(BigInt(t.subtotal) - BigInt(t.discount) + BigInt(t.tax)).toBe(BigInt(t.total));
  expect(t.grand_total).toBe(t.total);
}

/** A basket for a customer in the United Kingdom (20% VAT): 3 × £19.99 net and 1 × £12.00 gross. */
async function ukBasket(extra: Record<string, unknown> = {}) {
  const { customer, address } = await makeBuyer("GB");
  const netPrice = await makePrice({ unit_price: { amount: "1999", currency_code: "GBP" }, tax_mode: "external" });
  const grossPrice = await makePrice({ unit_price: { amount: "1200", currency_code: "GBP" }, tax_mode: "internal" });
  return makeTransaction({
    items: [
      { price_id: netPrice.id, quantity: 3 },
      { price_id: grossPrice.id, quantity: 1 },
    ],
    customer_id: customer.id,
    address_id: address.id,
    ...extra,
  });
}

describe("totals", () => {
  it("tax-exclusive and tax-inclusive prices in one basket", async () => {
    const t = await ukBasket();
    const [net, gross] = t.details.line_items;
    // 3 × 1999 = 5997 net; VAT 20% = 1199.4 → 1199.
    expect(net.totals).toEqual({ subtotal: "5997", discount: "0", tax: "1199", total: "7196" });
    expect(net.unit_totals).toEqual({ subtotal: "1999", discount: "0", tax: "400", total: "2399" });
    expect(net.tax_rate).toBe("0.2");
    // 1200 gross holds 1200 × 0.2 / 1.2 = 200 of VAT.
    expect(gross.totals).toEqual({ subtotal: "1000", discount: "0", tax: "200", total: "1200" });
    expect(t.details.totals).toMatchObject({
      subtotal: "6997",
      discount: "0",
      tax: "1399",
      total: "8396",
      grand_total: "8396",
      balance: "8396",
      grand_total_tax: "1399",
      currency_code: "GBP",
    });
    expect(t.details.tax_rates_used).toEqual([
      { tax_rate: "0.2", totals: { subtotal: "6997", discount: "0", tax: "1399", total: "8396" } },
    ]);
    expectConsistent(t.details);
  });

  it("a 10% discount: tax on the discounted amount, reported net of tax for inclusive prices", async () => {
    const discount = await makeDiscount({ type: "percentage", amount: "10" });
    const t = await ukBasket({ discount_id: discount.id });
    const [net, gross] = t.details.line_items;
    // 5997 − 600 (599.7) = 5397; VAT 1079.4 → 1079.
    expect(net.totals).toEqual({ subtotal: "5997", discount: "600", tax: "1079", total: "6476" });
    expect(net.unit_totals).toEqual({ subtotal: "1999", discount: "200", tax: "360", total: "2159" });
    // 1200 − 120 = 1080 gross, 180 of it VAT; net 1000 − 900 = 100 off.
    expect(gross.totals).toEqual({ subtotal: "1000", discount: "100", tax: "180", total: "1080" });
    expect(t.details.totals).toMatchObject({ subtotal: "6997", discount: "700", tax: "1259", total: "7556" });
    expectConsistent(t.details);
  });

  it("a flat £10.00 discount is split over the lines by their amounts", async () => {
    const discount = await makeDiscount({ type: "flat", amount: "1000", currency_code: "GBP" });
    const t = await ukBasket({ discount_id: discount.id });
    const [net, gross] = t.details.line_items;
    // 1000 × 5997/7197 = 833.26 and 1000 × 1200/7197 = 166.74: largest remainder gives 833 and 167.
    expect(net.totals).toEqual({ subtotal: "5997", discount: "833", tax: "1033", total: "6197" });
    // 1200 − 167 = 1033 gross; VAT 172.17 → 172; discount reported net of tax: 1000 − 861 = 139.
    expect(gross.totals).toEqual({ subtotal: "1000", discount: "139", tax: "172", total: "1033" });
    expect(t.details.totals).toMatchObject({ subtotal: "6997", discount: "972", tax: "1205", total: "7230" });
    expectConsistent(t.details);
  });

  it("a flat_per_seat discount restricted to one price", async () => {
    const { customer, address } = await makeBuyer("DE");
    const seats = await makePrice({ unit_price: { amount: "1500", currency_code: "EUR" } });
    const other = await makePrice({ unit_price: { amount: "5000", currency_code: "EUR" } });
    const discount = await makeDiscount({
      type: "flat_per_seat",
      amount: "250",
      currency_code: "EUR",
      restrict_to: [seats.id],
    });
    const t = await makeTransaction({
      items: [
        { price_id: seats.id, quantity: 4 },
        { price_id: other.id, quantity: 1 },
      ],
      customer_id: customer.id,
      address_id: address.id,
      discount_id: discount.id,
    });
    const [a, b] = t.details.line_items;
    // 6000 − 4 × 250 = 5000; 19% = 950.
    expect(a.totals).toEqual({ subtotal: "6000", discount: "1000", tax: "950", total: "5950" });
    expect(b.totals).toEqual({ subtotal: "5000", discount: "0", tax: "950", total: "5950" });
    expect(t.details.totals).toMatchObject({ subtotal: "11000", discount: "1000", tax: "1900", total: "11900" });
    expectConsistent(t.details);
  });

  it("no address: no tax; a country without a rate: no tax", async () => {
    const p = await makePrice({ unit_price: { amount: "1000", currency_code: "USD" } });
    const t = await makeTransaction({ items: [{ price_id: p.id, quantity: 1 }] });
    expect(t.details.totals).toMatchObject({ tax: "0", total: "1000" });
    expect(t.details.line_items[0].tax_rate).toBe("0");
  });

  it("in a currency without minor units (JPY)", async () => {
    const { customer, address } = await makeBuyer("GB");
    const yen = await makePrice({ unit_price: { amount: "333", currency_code: "JPY" } });
    const t = await makeTransaction({
      items: [{ price_id: yen.id, quantity: 3 }],
      customer_id: customer.id,
      address_id: address.id,
    });
    // 999 × 0.2 = 199.8 → 200.
    expect(t.details.totals).toMatchObject({ subtotal: "999", tax: "200", total: "1199", currency_code: "JPY" });
  });

  it("a price with a trial charges nothing in the transaction that starts it", async () => {
    const trial = await makePrice({
      billing_cycle: { interval: "month", frequency: 1 },
      trial_period: { interval: "day", frequency: 14 },
    });
    const setup = await makePrice({ unit_price: { amount: "500", currency_code: "USD" } });
    const t = await makeTransaction({
      items: [
        { price_id: trial.id, quantity: 1 },
        { price_id: setup.id, quantity: 1 },
      ],
    });
    expect(t.details.line_items[0].totals.total).toBe("0");
    expect(t.details.totals.total).toBe("500");
  });

  it("large amounts stay exact (no floating point)", async () => {
    const big = await makePrice({
      unit_price: { amount: "999999999999", currency_code: "USD" },
      quantity: { minimum: 1, maximum: 999 },
    });
    const t = await makeTransaction({ items: [{ price_id: big.id, quantity: 999 }] });
    expect(t.details.totals.subtotal).toBe("998999999999001");
  });
});

describe("the merchant's tax settings", () => {
  it("a tax rate override for a country wins over the standard rate", async () => {
    await query("INSERT INTO tax_rates (country_code, rate) VALUES ('US', 0.08875)");
    try {
      const { customer, address } = await makeBuyer("US");
      const p = await makePrice({ unit_price: { amount: "1000", currency_code: "USD" } });
      const t = await makeTransaction({
        items: [{ price_id: p.id, quantity: 1 }],
        customer_id: customer.id,
        address_id: address.id,
      });
      // 1000 × 8.875% = 88.75 → 89.
      expect(t.details.line_items[0].tax_rate).toBe("0.08875");
      expect(t.details.totals).toMatchObject({ tax: "89", total: "1089" });
    } finally {
      await query("DELETE FROM tax_rates WHERE country_code = 'US'");
    }
  });

  it("tax mode account_setting follows the account (external unless set to internal)", async () => {
    const { customer, address } = await makeBuyer("GB");
    const p = await makePrice({ unit_price: { amount: "1200", currency_code: "GBP" }, tax_mode: "account_setting" });
    const body = { items: [{ price_id: p.id, quantity: 1 }], customer_id: customer.id, address_id: address.id };
    const external = await makeTransaction(body);
    expect(external.details.totals).toMatchObject({ subtotal: "1200", tax: "240", total: "1440" });
    await query("INSERT INTO settings (key, value) VALUES ('account_tax_mode', 'internal')");
    try {
      const internal = await makeTransaction(body);
      expect(internal.details.totals).toMatchObject({ subtotal: "1000", tax: "200", total: "1200" });
    } finally {
      await query("DELETE FROM settings WHERE key = 'account_tax_mode'");
    }
  });

  it("stored totals do not move when the rates change, until the transaction is repriced", async () => {
    const { customer, address } = await makeBuyer("FR");
    const p = await makePrice({ unit_price: { amount: "1000", currency_code: "EUR" } });
    const t = await makeTransaction({
      items: [{ price_id: p.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
    });
    expect(t.details.totals.tax).toBe("200");
    await query("INSERT INTO tax_rates (country_code, rate) VALUES ('FR', 0.1)");
    try {
      expect((await transactions.get(t.id)).body.data.details.totals.tax).toBe("200");
      const repriced = await transactions.update(t.id, { items: [{ price_id: p.id, quantity: 1 }] });
      expect(repriced.body.data.details.totals.tax).toBe("100");
    } finally {
      await query("DELETE FROM tax_rates WHERE country_code = 'FR'");
    }
  });
});
