import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FieldError, isInvalidField } from "../errors.ts";
import type { Discount } from "../schemas/discount.ts";
import type { Price } from "../schemas/price.ts";
import type { CurrencyCode } from "./currencies.ts";
import { formatDecimal, parseAmount, parseDecimal, ratio, sum } from "./money.ts";
import { TAX_INCLUSIVE_COUNTRIES } from "./tax-inclusive-countries.ts";
import { taxRateFor } from "./tax-rates.ts";
import {
  type AmountTotals,
  computeFee,
  computeTotals,
  type DiscountLike,
  lineTaxMode,
  type PriceLike,
  payoutTotals,
  type TaxMode,
  type TotalsDetails,
  type TotalsInput,
  type TotalsItem,
  type UnitPriceOverrideLike,
  unitTotals,
} from "./totals.ts";

// The shapes of lib/schemas fit the engine's inputs as they are.
type Fits<T, U> = T extends U ? true : never;
const priceFits: Fits<Price, PriceLike> = true;
const discountFits: Fits<Discount, DiscountLike> = true;

let counter = 0;
function price(
  amount: string,
  taxMode: TaxMode = "external",
  options: { id?: string; productId?: string; currency?: CurrencyCode; overrides?: UnitPriceOverrideLike[] } = {},
): PriceLike {
  counter += 1;
  return {
    id: options.id ?? `pri_${counter}`,
    product_id: options.productId ?? `pro_${counter}`,
    tax_mode: taxMode,
    unit_price: { amount, currency_code: options.currency ?? "USD" },
    unit_price_overrides: options.overrides ?? [],
  };
}

function item(p: PriceLike, quantity = 1): TotalsItem {
  return { price: p, quantity };
}

function amounts(subtotal: number, discount: number, tax: number, total: number): AmountTotals {
  return { subtotal: `${subtotal}`, discount: `${discount}`, tax: `${tax}`, total: `${total}` };
}

function usd(items: TotalsItem[], rest: Partial<TotalsInput> = {}): TotalsDetails {
  return computeTotals({ currency_code: "USD", country_code: "GB", items, ...rest });
}

/** The one field error the billing rules raise for bad input. */
function billingError(run: () => unknown): FieldError {
  try {
    run();
  } catch (error) {
    if (isInvalidField(error) && error.errors.length === 1) return error.errors[0]!;
    throw error;
  }
  throw new Error("expected an invalid_field error");
}

describe("computeTotals: hand-computed examples", () => {
  it("shape-checks against lib/schemas", () => {
    expect(priceFits && discountFits).toBe(true);
  });

  it("USD, tax-exclusive, 20% VAT: tax on top", () => {
    const p = price("1000", "external", { id: "pri_a" });
    expect(usd([item(p)])).toEqual({
      tax_rates_used: [{ tax_rate: "0.2", totals: amounts(1000, 0, 200, 1200) }],
      totals: {
        subtotal: "1000",
        discount: "0",
        tax: "200",
        total: "1200",
        credit: "0",
        credit_to_balance: "0",
        balance: "1200",
        grand_total: "1200",
        grand_total_tax: "200",
        fee: null,
        earnings: null,
        currency_code: "USD",
      },
      line_items: [
        {
          price_id: "pri_a",
          quantity: 1,
          tax_rate: "0.2",
          unit_totals: amounts(1000, 0, 200, 1200),
          totals: amounts(1000, 0, 200, 1200),
        },
      ],
    });
    const three = usd([item(p, 3)]);
    expect(three.line_items[0]!.totals).toEqual(amounts(3000, 0, 600, 3600));
    expect(three.line_items[0]!.unit_totals).toEqual(amounts(1000, 0, 200, 1200));
  });

  it("tax-inclusive, 20% VAT: 1200 including tax is 1000 + 200", () => {
    const result = usd([item(price("1200", "internal"))]);
    expect(result.line_items[0]!.totals).toEqual(amounts(1000, 0, 200, 1200));
    expect(result.totals.total).toBe("1200");
    // 3 × 9.99 incl. 20%: tax 2997/6 = 499.5 → 500, net 2497; one unit 832 + 167 = 999.
    const odd = usd([item(price("999", "internal"), 3)]);
    expect(odd.line_items[0]!.totals).toEqual(amounts(2497, 0, 500, 2997));
    expect(odd.line_items[0]!.unit_totals).toEqual(amounts(832, 0, 167, 999));
  });

  it("JPY (no minor unit) rounds to the yen, halves up", () => {
    const jpy = (items: TotalsItem[]) => computeTotals({ currency_code: "JPY", country_code: "JP", items });
    // ¥105 + 10% = ¥10.5 of tax → ¥11.
    expect(jpy([item(price("105", "external", { currency: "JPY" }))]).line_items[0]!.totals).toEqual(
      amounts(105, 0, 11, 116),
    );
    // ¥1,234 including 10%: tax 1234/11 = 112.18 → ¥112, net ¥1,122.
    expect(jpy([item(price("1234", "internal", { currency: "JPY" }))]).line_items[0]!.totals).toEqual(
      amounts(1122, 0, 112, 1234),
    );
    const both = jpy([
      item(price("105", "external", { currency: "JPY" })),
      item(price("1234", "internal", { currency: "JPY" })),
    ]);
    expect(both.totals).toMatchObject({ subtotal: "1227", discount: "0", tax: "123", total: "1350" });
    expect(both.tax_rates_used).toEqual([{ tax_rate: "0.1", totals: amounts(1227, 0, 123, 1350) }]);
  });

  it("a flat discount is split over a 3-line basket by largest remainder", () => {
    // $10.01 off $40.00 of lines worth 10, 20 and 2 × 5: exact shares 250.25, 500.5, 250.25.
    const result = usd([item(price("1000")), item(price("2000")), item(price("500"), 2)], {
      discount: { type: "flat", amount: "1001", currency_code: "USD", restrict_to: null },
    });
    expect(result.line_items.map((line) => line.totals)).toEqual([
      amounts(1000, 250, 150, 900),
      amounts(2000, 501, 300, 1799), // tax on 1499 = 299.8 → 300
      amounts(1000, 250, 150, 900),
    ]);
    expect(result.line_items[2]!.unit_totals).toEqual(amounts(500, 125, 75, 450));
    expect(result.totals).toMatchObject({ subtotal: "4000", discount: "1001", tax: "600", total: "3599" });
  });

  it("a percentage discount restricted to one product (or one price)", () => {
    const a = price("1000", "external", { id: "pri_a", productId: "pro_a" });
    const b = price("2000", "external", { id: "pri_b", productId: "pro_b" });
    const byProduct = usd([item(a), item(b)], {
      discount: { type: "percentage", amount: "10", currency_code: null, restrict_to: ["pro_a"] },
    });
    expect(byProduct.line_items.map((line) => line.totals)).toEqual([
      amounts(1000, 100, 180, 1080),
      amounts(2000, 0, 400, 2400),
    ]);
    expect(byProduct.totals).toMatchObject({ subtotal: "3000", discount: "100", tax: "580", total: "3480" });
    const byPrice = usd([item(a), item(b)], {
      discount: { type: "percentage", amount: "12.5", currency_code: null, restrict_to: ["pri_b"] },
    });
    expect(byPrice.line_items.map((line) => line.totals)).toEqual([
      amounts(1000, 0, 200, 1200),
      amounts(2000, 250, 350, 2100),
    ]);
  });

  it("flat_per_seat on internal pricing: tax is removed from the applied discount", () => {
    // 3 seats at $12.00 incl. 20% VAT, $1.20 off per seat: $3.60 off the tax-inclusive $36.00.
    // Paid 32.40 = 27.00 + 5.40 tax; the discount reported is net of tax: 3.60 / 1.2 = 3.00.
    const result = usd([item(price("1200", "internal"), 3)], {
      discount: { type: "flat_per_seat", amount: "120", currency_code: "USD", restrict_to: null },
    });
    expect(result.line_items[0]!.totals).toEqual(amounts(3000, 300, 540, 3240));
    expect(result.line_items[0]!.unit_totals).toEqual(amounts(1000, 100, 180, 1080));
    // The same $1.20 on a tax-exclusive $10.00 price is $1.20 off the net, and tax follows.
    const external = usd([item(price("1000", "external"))], {
      discount: { type: "flat_per_seat", amount: "120", currency_code: "USD", restrict_to: null },
    });
    expect(external.line_items[0]!.totals).toEqual(amounts(1000, 120, 176, 1056));
  });

  it("a flat discount on an internal price and the same percentage agree", () => {
    const flat = usd([item(price("1200", "internal"))], {
      discount: { type: "flat", amount: "120", currency_code: "USD", restrict_to: null },
    });
    const percent = usd([item(price("1200", "internal"))], {
      discount: { type: "percentage", amount: "10", currency_code: null, restrict_to: null },
    });
    expect(flat.line_items[0]!.totals).toEqual(amounts(1000, 100, 180, 1080));
    expect(percent.line_items[0]!.totals).toEqual(flat.line_items[0]!.totals);
  });

  it("unit price override by the address's country, in the transaction's currency", () => {
    const p = price("1000", "external", {
      currency: "EUR",
      overrides: [
        { country_codes: ["DE", "AT"], unit_price: { amount: "900", currency_code: "EUR" } },
        { country_codes: ["CH"], unit_price: { amount: "950", currency_code: "CHF" } },
      ],
    });
    const eur = (country: string) => computeTotals({ currency_code: "EUR", country_code: country, items: [item(p)] });
    expect(eur("DE").line_items[0]!.totals).toEqual(amounts(900, 0, 171, 1071));
    expect(eur("de").line_items[0]!.totals).toEqual(amounts(900, 0, 171, 1071));
    expect(eur("AT").line_items[0]!.totals).toEqual(amounts(900, 0, 180, 1080));
    expect(eur("FR").line_items[0]!.totals).toEqual(amounts(1000, 0, 200, 1200));
    // The Swiss override is in CHF: an EUR transaction to a Swiss address takes the EUR price.
    expect(eur("CH").line_items[0]!.totals).toEqual(amounts(1000, 0, 81, 1081));
    const chf = (country: string) => computeTotals({ currency_code: "CHF", country_code: country, items: [item(p)] });
    expect(chf("CH").line_items[0]!.totals).toEqual(amounts(950, 0, 77, 1027)); // 76.95 → 77
    const error = billingError(() => chf("DE"));
    expect(error.field).toBe("items[0].price.unit_price.currency_code");
    expect(error.message).toMatch(/EUR.*CHF/);
  });

  it("account_setting takes the account's tax mode (external by default)", () => {
    const p = price("1200", "account_setting");
    expect(usd([item(p)], { account_tax_mode: "internal" }).line_items[0]!.totals).toEqual(amounts(1000, 0, 200, 1200));
    expect(usd([item(p)]).line_items[0]!.totals).toEqual(amounts(1200, 0, 240, 1440));
  });

  it("uses the merchant's tax rates and charges no tax without an address", () => {
    const p = price("1000");
    expect(usd([item(p)], { country_code: "US", tax_rates: { US: "0.0725" } }).line_items[0]).toMatchObject({
      tax_rate: "0.0725",
      totals: amounts(1000, 0, 73, 1073), // 72.5 → 73
    });
    expect(usd([item(p)], { country_code: null }).line_items[0]).toMatchObject({
      tax_rate: "0",
      totals: amounts(1000, 0, 0, 1000),
    });
  });

  it("a discount never takes more than what it applies to", () => {
    const flat = usd([item(price("1000"))], {
      discount: { type: "flat", amount: "5000", currency_code: "USD", restrict_to: null },
    });
    expect(flat.line_items[0]!.totals).toEqual(amounts(1000, 1000, 0, 0));
    const seats = usd([item(price("1200", "internal"), 2)], {
      discount: { type: "flat_per_seat", amount: "5000", currency_code: "USD", restrict_to: null },
    });
    expect(seats.line_items[0]!.totals).toEqual(amounts(2000, 2000, 0, 0));
    const full = usd([item(price("999", "internal"), 7)], {
      discount: { type: "percentage", amount: "100", currency_code: null, restrict_to: null },
    });
    expect(full.totals).toMatchObject({ discount: full.totals.subtotal, tax: "0", total: "0", grand_total: "0" });
  });

  it("refuses a flat discount in another currency, and other bad input, naming the field", () => {
    const items = [item(price("1000"))];
    for (const type of ["flat", "flat_per_seat"] as const) {
      const error = billingError(() =>
        usd(items, { discount: { type, amount: "100", currency_code: "EUR", restrict_to: null } }),
      );
      expect(error.field).toBe("discount.currency_code");
      expect(error.message).toMatch(/EUR.*USD/);
    }
    expect(
      billingError(() => usd(items, { discount: { type: "percentage", amount: "100.01", currency_code: null } })).field,
    ).toBe("discount.amount");
    expect(
      billingError(() => usd(items, { discount: { type: "percentage", amount: "0", currency_code: null } })).field,
    ).toBe("discount.amount");
    expect(
      billingError(() => usd(items, { discount: { type: "flat", amount: "1.5", currency_code: "USD" } })).field,
    ).toBe("discount.amount");
    expect(billingError(() => usd([item(price("1000"), 0)])).field).toBe("items[0].quantity");
    expect(billingError(() => usd([item(price("1000"), 1.5)])).field).toBe("items[0].quantity");
    expect(billingError(() => usd([item(price("10.00"))])).field).toBe("items[0].price.unit_price.amount");
    expect(billingError(() => usd(items, { credit_balance: -1n })).field).toBe("credit_balance");
  });

  it("applies the customer's credit and reports the tax in what is left", () => {
    const items = [item(price("1000"))]; // total 1200, tax 200
    expect(usd(items, { credit_balance: 500n }).totals).toMatchObject({
      total: "1200",
      credit: "500",
      credit_to_balance: "0",
      grand_total: "700",
      grand_total_tax: "117", // 200 × 700 / 1200 = 116.67
      balance: "700",
    });
    expect(usd(items, { credit_balance: 500n, amount_paid: 700n }).totals.balance).toBe("0");
    expect(usd(items, { credit_balance: 5000n }).totals).toMatchObject({
      credit: "1200",
      grand_total: "0",
      grand_total_tax: "0",
      balance: "0",
    });
  });

  it("a credit line (negative amount) is never discounted, and a negative total goes to the balance", () => {
    const credit = usd([item(price("-1000"))], { credit_balance: 300n });
    expect(credit.line_items[0]!.totals).toEqual(amounts(-1000, 0, -200, -1200));
    expect(credit.totals).toMatchObject({ total: "-1200", credit: "0", credit_to_balance: "1200", grand_total: "0" });
    const mixed = usd([item(price("2000")), item(price("-1000"))], {
      discount: { type: "flat", amount: "500", currency_code: "USD", restrict_to: null },
    });
    expect(mixed.line_items.map((line) => line.totals)).toEqual([
      amounts(2000, 500, 300, 1800),
      amounts(-1000, 0, -200, -1200),
    ]);
  });

  it("an empty basket costs nothing", () => {
    expect(usd([])).toMatchObject({ tax_rates_used: [], line_items: [], totals: { total: "0", grand_total: "0" } });
  });
});

describe("unitTotals", () => {
  it("divides by the quantity and keeps total = subtotal − discount + tax", () => {
    // 3 × $10.00 with $1.00 off: 3000 − 100 + 580 = 3480; one unit 1000 − 33 + 193 = 1160.
    expect(unitTotals({ subtotal: 3000n, discount: 100n, tax: 580n, total: 3480n }, 3n)).toEqual({
      subtotal: 1000n,
      discount: 33n,
      tax: 193n,
      total: 1160n,
    });
    // Per unit 0.5 − 0.25 + 0.5 = 0.75: rounded one by one 1 − 0 + 1 ≠ 1. The subtotal and the tax
    // both leaned up by half a unit; the first of them (the subtotal) is rounded down instead.
    expect(unitTotals({ subtotal: 2n, discount: 1n, tax: 2n, total: 3n }, 4n)).toEqual({
      subtotal: 0n,
      discount: 0n,
      tax: 1n,
      total: 1n,
    });
  });
});

describe("fees and payout", () => {
  it("computes the fee as a percentage plus a fixed amount, rounded by the one rule", () => {
    expect(computeFee(1200n, { percent: "5", fixed: 50n })).toBe(110n);
    expect(computeFee(1999n, { percent: "2.9", fixed: 30n })).toBe(88n); // 57.971 → 58, + 30
    expect(computeFee(1010n, { percent: "5", fixed: 0n })).toBe(51n); // 50.5 → 51
    expect(computeFee(10n, { percent: "5", fixed: 50n })).toBe(10n); // never more than the payment
    expect(computeFee(0n, { percent: "5", fixed: 50n })).toBe(0n);
    expect(billingError(() => computeFee(100n, { percent: "101", fixed: 0n })).field).toBe("fee.percent");
    expect(billingError(() => computeFee(100n, { percent: "5", fixed: -1n })).field).toBe("fee.fixed");
  });

  it("fills the payout totals: earnings = total − tax − fee", () => {
    const { totals } = usd([item(price("1000"))]);
    expect(payoutTotals(totals, { percent: "5", fixed: 50n })).toEqual({
      subtotal: "1000",
      discount: "0",
      tax: "200",
      total: "1200",
      credit: "0",
      balance: "1200",
      grand_total: "1200",
      grand_total_tax: "200",
      credit_to_balance: "0",
      fee: "110",
      earnings: "890",
      currency_code: "USD",
      exchange_rate: "1",
      fee_rate: "0.05",
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Property tests over random baskets

const COUNTRIES = ["GB", "DE", "FI", "CH", "JP", "US", "CA", "IN", "HU", "AQ", null] as const;
const PRODUCTS = ["pro_a", "pro_b", "pro_c"];

/** A rate of up to four decimals, 0 to 30%. */
const rateText = fc.integer({ min: 0, max: 3000 }).map((n) => formatDecimal(ratio(BigInt(n), 10000n)));

const lineArbitrary = fc.record({
  amount: fc.oneof(fc.bigInt({ min: 0n, max: 10_000n }), fc.bigInt({ min: 0n, max: 100_000_000n })),
  quantity: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 10_000 })),
  taxMode: fc.constantFrom<TaxMode>("external", "internal", "account_setting", "location"),
  product: fc.constantFrom(...PRODUCTS),
});

const discountArbitrary = (priceIds: string[], currency: string) =>
  fc.record({
    kind: fc.oneof(
      fc.integer({ min: 1, max: 10_000 }).map((n) => ({
        type: "percentage" as const,
        amount: formatDecimal(ratio(BigInt(n), 100n)),
        currency_code: null,
      })),
      fc.bigInt({ min: 0n, max: 50_000_000n }).map((n) => ({
        type: "flat" as const,
        amount: n.toString(),
        currency_code: currency,
      })),
      fc.bigInt({ min: 0n, max: 100_000n }).map((n) => ({
        type: "flat_per_seat" as const,
        amount: n.toString(),
        currency_code: currency,
      })),
    ),
    restrictTo: fc.option(fc.subarray([...priceIds, ...PRODUCTS]), { nil: null }),
  });

const basketArbitrary = fc
  .record({
    currency: fc.constantFrom<CurrencyCode>("USD", "EUR", "JPY"),
    country: fc.constantFrom(...COUNTRIES),
    override: fc.option(rateText, { nil: null }),
    accountTaxMode: fc.constantFrom("external" as const, "internal" as const),
    lines: fc.array(lineArbitrary, { minLength: 1, maxLength: 6 }),
    credit: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 100_000_000n })),
  })
  .chain((basket) =>
    fc
      .option(
        discountArbitrary(
          basket.lines.map((_, i) => `pri_${i}`),
          basket.currency,
        ),
        { nil: null },
      )
      .map((discount) => ({ ...basket, discount })),
  );

type Basket = typeof basketArbitrary extends fc.Arbitrary<infer T> ? T : never;

function basketInput(basket: Basket): TotalsInput {
  return {
    currency_code: basket.currency,
    country_code: basket.country,
    tax_rates: basket.override !== null && basket.country ? { [basket.country]: basket.override } : undefined,
    account_tax_mode: basket.accountTaxMode,
    credit_balance: basket.credit,
    discount: basket.discount ? { ...basket.discount.kind, restrict_to: basket.discount.restrictTo } : null,
    items: basket.lines.map((line, i) => ({
      quantity: line.quantity,
      price: {
        id: `pri_${i}`,
        product_id: line.product,
        tax_mode: line.taxMode,
        unit_price: { amount: line.amount.toString(), currency_code: basket.currency },
      },
    })),
  };
}

const FIELDS = ["subtotal", "discount", "tax", "total"] as const;

function exact(totals: AmountTotals) {
  return {
    subtotal: parseAmount(totals.subtotal),
    discount: parseAmount(totals.discount),
    tax: parseAmount(totals.tax),
    total: parseAmount(totals.total),
  };
}

const abs = (n: bigint) => (n < 0n ? -n : n);
const RUNS = { numRuns: 400 };

function eligible(basket: Basket, i: number): boolean {
  const restrictTo = basket.discount?.restrictTo;
  if (!basket.discount) return false;
  if (basket.lines[i]!.amount === 0n) return false;
  return !restrictTo?.length || restrictTo.includes(`pri_${i}`) || restrictTo.includes(basket.lines[i]!.product);
}

function modeOf(basket: Basket, i: number): "external" | "internal" {
  const mode = basket.lines[i]!.taxMode;
  if (mode === "location")
    return basket.country && TAX_INCLUSIVE_COUNTRIES.has(basket.country) ? "internal" : "external";
  return mode === "account_setting" ? basket.accountTaxMode : mode;
}

describe("computeTotals: properties over random baskets", () => {
  it("the lines add up to the totals, field by field, and so do the tax rates used", () => {
    fc.assert(
      fc.property(basketArbitrary, (basket) => {
        const details = computeTotals(basketInput(basket));
        const lines = details.line_items.map((line) => exact(line.totals));
        const rates = details.tax_rates_used.map((used) => exact(used.totals));
        const totals = exact(details.totals);
        for (const field of FIELDS) {
          expect(sum(lines.map((line) => line[field]))).toBe(totals[field]);
          expect(sum(rates.map((rate) => rate[field]))).toBe(totals[field]);
        }
        expect(details.totals.currency_code).toBe(basket.currency);
      }),
      RUNS,
    );
  });

  it("total = subtotal − discount + tax everywhere; nothing negative; discount ≤ subtotal", () => {
    fc.assert(
      fc.property(basketArbitrary, (basket) => {
        const details = computeTotals(basketInput(basket));
        const all = [
          exact(details.totals),
          ...details.line_items.flatMap((line) => [exact(line.totals), exact(line.unit_totals)]),
        ];
        for (const a of all) {
          expect(a.total).toBe(a.subtotal - a.discount + a.tax);
          for (const field of FIELDS) expect(a[field] >= 0n).toBe(true);
          expect(a.discount <= a.subtotal).toBe(true);
        }
        const t = details.totals;
        for (const field of ["credit", "credit_to_balance", "grand_total", "grand_total_tax", "balance"] as const) {
          expect(parseAmount(t[field]) >= 0n).toBe(true);
        }
        expect(parseAmount(t.credit) <= basket.credit).toBe(true);
        expect(parseAmount(t.grand_total)).toBe(parseAmount(t.total) - parseAmount(t.credit));
        expect(parseAmount(t.grand_total_tax) <= parseAmount(t.tax)).toBe(true);
        if (t.credit === "0") expect(t.grand_total_tax).toBe(t.tax);
      }),
      RUNS,
    );
  });

  it("one unit × quantity stays within one minor unit per unit of the line, field by field", () => {
    fc.assert(
      fc.property(basketArbitrary, (basket) => {
        for (const line of computeTotals(basketInput(basket)).line_items) {
          const q = BigInt(line.quantity);
          const unit = exact(line.unit_totals);
          const totals = exact(line.totals);
          for (const field of FIELDS) {
            if (q === 1n) expect(unit[field]).toBe(totals[field]);
            else expect(abs(unit[field] * q - totals[field]) < q).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it("prices mean what their tax mode says, and tax is the rate of the right amount", () => {
    fc.assert(
      fc.property(basketArbitrary, (basket) => {
        const details = computeTotals(basketInput(basket));
        details.line_items.forEach((line, i) => {
          const { amount, quantity } = basket.lines[i]!;
          const gross = amount * BigInt(quantity);
          const t = exact(line.totals);
          const rate = parseDecimal(line.tax_rate);
          if (modeOf(basket, i) === "external") {
            // N × quantity is the subtotal; tax is round((subtotal − discount) × r).
            expect(t.subtotal).toBe(gross);
            const taxable = t.subtotal - t.discount;
            expect(2n * abs(t.tax * rate.denominator - taxable * rate.numerator) <= rate.denominator).toBe(true);
          } else {
            // P × quantity is what is paid before discount; tax is the r/(1+r) share of the total.
            const share = rate.denominator + rate.numerator;
            expect(2n * abs(t.tax * share - t.total * rate.numerator) <= share).toBe(true);
            if (!eligible(basket, i)) expect(t.total).toBe(gross);
          }
          if (!eligible(basket, i)) expect(t.discount).toBe(0n);
        });
      }),
      RUNS,
    );
  });

  it("the discount takes off the price exactly what its type says (tax-inclusive: off P × quantity)", () => {
    fc.assert(
      fc.property(
        basketArbitrary.filter((basket) => basket.discount !== null),
        (basket) => {
          const details = computeTotals(basketInput(basket));
          const discount = basket.discount!.kind;
          // What the discount took off each line's price as written: net for external, gross for internal.
          const applied = details.line_items.map((line, i) => {
            const t = exact(line.totals);
            const gross = basket.lines[i]!.amount * BigInt(basket.lines[i]!.quantity);
            return modeOf(basket, i) === "external" ? t.discount : gross - t.total;
          });
          const grossOf = (i: number) => basket.lines[i]!.amount * BigInt(basket.lines[i]!.quantity);
          basket.lines.forEach((line, i) => {
            if (!eligible(basket, i)) {
              expect(applied[i]).toBe(0n);
            } else if (discount.type === "percentage") {
              const p = parseDecimal(discount.amount);
              const exactOff = ratio(grossOf(i) * p.numerator, p.denominator * 100n);
              expect(2n * abs(applied[i]! * exactOff.denominator - exactOff.numerator) <= exactOff.denominator).toBe(
                true,
              );
            } else if (discount.type === "flat_per_seat") {
              const perSeat = BigInt(discount.amount) * BigInt(line.quantity);
              expect(applied[i]).toBe(perSeat < grossOf(i) ? perSeat : grossOf(i));
            }
          });
          if (discount.type === "flat") {
            const eligibleGross = sum(basket.lines.map((_, i) => (eligible(basket, i) ? grossOf(i) : 0n)));
            const flat = BigInt(discount.amount);
            expect(sum(applied)).toBe(flat < eligibleGross ? flat : eligibleGross);
          }
        },
      ),
      RUNS,
    );
  });

  it("a tax-inclusive price P = N × (1 + r) is priced exactly like the tax-exclusive N", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("GB", "DE", "FI", "CH", "JP", "HU", "NG"),
        fc.bigInt({ min: 0n, max: 1_000_000n }),
        fc.integer({ min: 1, max: 1000 }),
        (country, units, quantity) => {
          const r = taxRateFor(country).ratio;
          const net = units * r.denominator; // N × r is whole
          const grossPrice = net + (net * r.numerator) / r.denominator;
          const run = (amount: bigint, mode: TaxMode) =>
            computeTotals({
              currency_code: "USD",
              country_code: country,
              items: [item(price(amount.toString(), mode), quantity)],
            }).line_items[0];
          const external = run(net, "external");
          const internal = run(grossPrice, "internal");
          expect(internal!.totals).toEqual(external!.totals);
          expect(internal!.unit_totals).toEqual(external!.unit_totals);
        },
      ),
      RUNS,
    );
  });

  it("amounts beyond 2^53 stay exact (no floating point)", () => {
    const huge = "123456789012345678"; // > 2^53
    const result = usd([item(price(huge))], { country_code: "US" });
    expect(result.totals.total).toBe(huge);
    const taxed = usd([item(price(huge))]);
    expect(taxed.totals.tax).toBe("24691357802469136"); // 123456789012345678 × 0.2 = …135.6 → …136
  });
});

describe("tax_mode location: inclusive where consumer prices include tax, exclusive elsewhere", () => {
  const p = () => price("1190", "location", { currency: "EUR" });
  const eur = (country: string | null, rest: Partial<TotalsInput> = {}) =>
    computeTotals({ currency_code: "EUR", country_code: country, items: [item(p())], ...rest });

  it("in Germany the price includes 19% VAT: 1190 = 1000 + 190", () => {
    const line = eur("DE").line_items[0];
    expect(line!.totals).toEqual(amounts(1000, 0, 190, 1190));
    expect(line!.tax_rate).toBe("0.19");
  });

  it("in the United States tax is added on top (with a rate set for US): 1190 + 10%", () => {
    const line = eur("US", { tax_rates: { US: "0.1" } }).line_items[0];
    expect(line!.totals).toEqual(amounts(1190, 0, 119, 1309));
  });

  it("in Canada (exclusive) and without a country it is exclusive too; lowercase country codes work", () => {
    expect(eur("CA", { tax_rates: { CA: "0.05" } }).line_items[0]!.totals).toEqual(amounts(1190, 0, 60, 1250));
    expect(eur(null).line_items[0]!.totals).toEqual(amounts(1190, 0, 0, 1190));
    expect(eur("de").line_items[0]!.totals).toEqual(amounts(1000, 0, 190, 1190));
  });

  it("does not follow the account's tax mode (only account_setting does)", () => {
    expect(eur("DE", { account_tax_mode: "external" }).line_items[0]!.totals).toEqual(amounts(1000, 0, 190, 1190));
    expect(eur("US", { account_tax_mode: "internal", tax_rates: { US: "0.1" } }).line_items[0]!.totals).toEqual(
      amounts(1190, 0, 119, 1309),
    );
  });

  it("lineTaxMode resolves each mode", () => {
    expect(lineTaxMode("location", { country_code: "FR" })).toBe("internal");
    expect(lineTaxMode("location", { country_code: "US" })).toBe("external");
    expect(lineTaxMode("location", { country_code: null })).toBe("external");
    expect(lineTaxMode("account_setting", { country_code: "FR", account_tax_mode: "internal" })).toBe("internal");
    expect(lineTaxMode("account_setting", { country_code: "FR" })).toBe("external");
    expect(lineTaxMode("external", { country_code: "FR" })).toBe("external");
    expect(lineTaxMode("internal", { country_code: "US" })).toBe("internal");
  });
});
