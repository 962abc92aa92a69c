/**
 * The totals engine on subscription changes: prorated lines and credit lines (totals.ts, top of
 * file), priced from the lines of proration.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { formatDecimal, minOf, type Ratio, ratio, sum } from "./money.ts";
import { type ItemQuantity, itemChangeLines, type ProrationLine, prorationRate } from "./proration.ts";
import type { BillingCycle } from "./subscription-dates.ts";
import {
  type AmountTotals,
  computeTotals,
  type DiscountLike,
  type PriceLike,
  type TaxMode,
  type TotalsDetails,
  type TotalsInput,
  type TotalsItem,
} from "./totals.ts";

const monthly: BillingCycle = { interval: "month", frequency: 1 };

function price(id: string, amount: string, taxMode: TaxMode = "external", productId = `pro_${id}`): PriceLike {
  return { id, product_id: productId, tax_mode: taxMode, unit_price: { amount, currency_code: "USD" } };
}

function amounts(subtotal: number, discount: number, tax: number, total: number): AmountTotals {
  return { subtotal: `${subtotal}`, discount: `${discount}`, tax: `${tax}`, total: `${total}` };
}

/** The engine's items for proration lines, with prices by ID. */
function itemsFor(lines: readonly ProrationLine[], prices: ReadonlyMap<string, PriceLike>): TotalsItem[] {
  return lines.map((line) => ({
    price: prices.get(line.price_id) as PriceLike,
    quantity: line.quantity,
    proration: line.rate,
    credit: line.credit,
  }));
}

const period = {
  starts_at: "2024-05-10T12:01:46.293348Z",
  ends_at: "2024-06-10T12:01:46.293348Z",
};

describe("prorated and credit lines: examples", () => {
  // The API family's OpenAPI example of a subscription update: 5 Basic seats (10.00) replaced by
  // 20 Pro seats (30.00) and VIP support (250.00), at 2024-05-13 10:36:57 (rate 0.90513).
  const basic = price("pri_basic", "1000");
  const pro = price("pri_pro", "3000");
  const vip = price("pri_vip", "25000");
  const prices = new Map([basic, pro, vip].map((p) => [p.id, p]));
  const rate = prorationRate(
    { starts_at: new Date(period.starts_at), ends_at: new Date(period.ends_at) },
    new Date("2024-05-13T10:36:57.967Z"),
  );
  const lines = itemChangeLines(
    [{ price_id: "pri_basic", quantity: 5, billing_cycle: monthly }],
    [
      { price_id: "pri_vip", quantity: 1, billing_cycle: monthly },
      { price_id: "pri_pro", quantity: 20, billing_cycle: monthly },
    ],
    "prorated_immediately",
    rate,
  );
  const input: TotalsInput = {
    currency_code: "USD",
    country_code: "US",
    tax_rates: { US: "0.08875" },
    items: itemsFor(lines, prices).map((item) => ({ ...item, proration_period: period })),
  };

  it("prices the example's lines to the API family's subtotals (22628, 54308, −4526)", () => {
    const result = computeTotals(input);
    expect(result.line_items.map((line) => [line.price_id, line.quantity, line.totals.subtotal])).toEqual([
      ["pri_vip", 1, "22628"],
      ["pri_pro", 20, "54308"],
      ["pri_basic", -5, "-4526"],
    ]);
    // Tax by our one rate and rule (the API family splits US tax over several jurisdictions and
    // shows 2009, 4820, −401: its tax is not reproducible from one rate).
    expect(result.line_items.map((line) => line.totals)).toEqual([
      amounts(22628, 0, 2008, 24636),
      amounts(54308, 0, 4820, 59128),
      amounts(-4526, 0, -402, -4928),
    ]);
    expect(result.totals).toMatchObject({ subtotal: "72410", tax: "6426", total: "78836", grand_total: "78836" });
  });

  it("shows a credit line with a negative quantity, negative totals and positive unit totals", () => {
    const credit = computeTotals(input).line_items[2];
    expect(credit).toEqual({
      price_id: "pri_basic",
      quantity: -5,
      tax_rate: "0.08875",
      // −4526 / −5 = 905.2 → 905; −4928 / −5 = 985.6 → 986; the tax takes the unit (80.4 → 81).
      unit_totals: amounts(905, 0, 81, 986),
      totals: amounts(-4526, 0, -402, -4928),
      proration: { rate: "0.90513", billing_period: period },
    });
  });

  it("a line without proration has no proration key; a rate is used as shown (5 places)", () => {
    const plain = computeTotals({ currency_code: "USD", country_code: null, items: [{ price: pro, quantity: 1 }] });
    expect(plain.line_items[0]).not.toHaveProperty("proration");
    const third = computeTotals({
      currency_code: "USD",
      country_code: null,
      items: [{ price: price("pri_x", "300000"), quantity: 1, proration: ratio(1n, 3n) }],
    });
    // 1/3 → 0.33333: 300000 × 0.33333 = 99999 (the exact third would give 100000).
    expect(third.line_items[0]).toMatchObject({ totals: amounts(99999, 0, 0, 99999), proration: { rate: "0.33333" } });
    expect(third.line_items[0]!.proration?.billing_period).toBeNull();
  });

  it("a percentage discount applies to credit lines; flat and flat_per_seat do not", () => {
    const seat = price("pri_seat", "10000");
    const items: TotalsItem[] = [
      { price: seat, quantity: 2, proration: ratio(1n, 2n) },
      { price: seat, quantity: 1, proration: ratio(1n, 2n), credit: true },
    ];
    const run = (discount: DiscountLike) =>
      computeTotals({ currency_code: "USD", country_code: "GB", items, discount }).line_items.map((l) => l.totals);
    expect(run({ type: "percentage", amount: "10", currency_code: null })).toEqual([
      amounts(10000, 1000, 1800, 10800),
      amounts(-5000, -500, -900, -5400),
    ]);
    expect(run({ type: "flat", amount: "700", currency_code: "USD" })).toEqual([
      amounts(10000, 700, 1860, 11160),
      amounts(-5000, 0, -1000, -6000),
    ]);
    // flat_per_seat is per seat and period: half a period of 2 seats gets 2 × 1000 × 0.5 off.
    expect(run({ type: "flat_per_seat", amount: "1000", currency_code: "USD" })).toEqual([
      amounts(10000, 1000, 1800, 10800),
      amounts(-5000, 0, -1000, -6000),
    ]);
  });

  it("nets charges and credits: a negative total goes to the balance, a positive one uses the credit balance", () => {
    const a = price("pri_a", "1000");
    const b = price("pri_b", "5000");
    const downgrade = computeTotals({
      currency_code: "USD",
      country_code: null,
      credit_balance: 700n,
      items: [
        { price: a, quantity: 1, proration: ratio(1n, 2n) },
        { price: b, quantity: 1, proration: ratio(1n, 2n), credit: true },
      ],
    });
    expect(downgrade.totals).toMatchObject({
      total: "-2000",
      credit: "0",
      credit_to_balance: "2000",
      grand_total: "0",
    });
    const upgrade = computeTotals({
      currency_code: "USD",
      country_code: null,
      credit_balance: 700n,
      items: [
        { price: b, quantity: 1, proration: ratio(1n, 2n) },
        { price: a, quantity: 1, proration: ratio(1n, 2n), credit: true },
      ],
    });
    expect(upgrade.totals).toMatchObject({ total: "2000", credit: "700", credit_to_balance: "0", grand_total: "1300" });
  });

  it("refuses a negative rate, naming the item", () => {
    try {
      computeTotals({
        currency_code: "USD",
        country_code: null,
        items: [{ price: price("pri_a", "1000"), quantity: 1, proration: ratio(-1n, 2n) }],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).errors?.[0]?.field).toBe("items[0].proration");
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const PRICE_IDS = ["pri_a", "pri_b", "pri_c", "pri_d", "pri_e"];
const COUNTRIES = ["GB", "DE", "US", "JP", "HU", null] as const;

const priceTable = fc
  .tuple(
    ...PRICE_IDS.map(() =>
      fc.record({
        amount: fc.oneof(fc.bigInt({ min: 0n, max: 10_000n }), fc.bigInt({ min: 0n, max: 50_000_000n })),
        taxMode: fc.constantFrom<TaxMode>("external", "internal"),
      }),
    ),
  )
  .map(
    (rows) => new Map(rows.map((row, i) => [PRICE_IDS[i]!, price(PRICE_IDS[i]!, row.amount.toString(), row.taxMode)])),
  );

const subscriptionItems = fc
  .uniqueArray(fc.record({ price_id: fc.constantFrom(...PRICE_IDS), quantity: fc.integer({ min: 1, max: 200 }) }), {
    selector: (item) => item.price_id,
    minLength: 1,
    maxLength: 5,
  })
  .map((items): ItemQuantity[] => items.map((item) => ({ ...item, billing_cycle: monthly })));

/** A rate as prorationRate makes them: 0 to 1 with 5 places. */
const rates = fc.integer({ min: 0, max: 100_000 }).map((n) => ratio(BigInt(n), 100_000n));

const percentages = fc.option(
  fc
    .integer({ min: 1, max: 10_000 })
    .map(
      (n): DiscountLike => ({ type: "percentage", amount: formatDecimal(ratio(BigInt(n), 100n)), currency_code: null }),
    ),
  { nil: null },
);

function totalsOf(result: TotalsDetails): bigint[] {
  return result.line_items.map((line) => BigInt(line.totals.total));
}

describe("prorated and credit lines: properties", () => {
  it("an upgrade and its reverse at the same instant cancel out, line by line (percentage discount or none, both tax modes)", () => {
    fc.assert(
      fc.property(
        priceTable,
        subscriptionItems,
        subscriptionItems,
        rates,
        percentages,
        fc.constantFrom(...COUNTRIES),
        (prices, before, after, rate: Ratio, discount, country) => {
          const price = (lines: ProrationLine[]) =>
            computeTotals({ currency_code: "USD", country_code: country, items: itemsFor(lines, prices), discount });
          const up = price(itemChangeLines(before, after, "prorated_immediately", rate));
          const down = price(itemChangeLines(after, before, "prorated_immediately", rate));
          // The same prices at the same rate, with the roles swapped: each line of one is a line of the
          // other with the opposite sign (at most one line per price in each).
          for (const line of up.line_items) {
            const reverse = down.line_items.find((other) => other.price_id === line.price_id);
            expect(reverse?.quantity).toBe(-line.quantity);
            for (const field of ["subtotal", "discount", "tax", "total"] as const) {
              // Required: within one minor unit per line; the symmetric rounding makes it exact.
              expect(BigInt(line.totals[field]) + BigInt(reverse?.totals[field] ?? "0")).toBe(0n);
            }
          }
          expect(up.line_items.length).toBe(down.line_items.length);
          expect(BigInt(up.totals.total) + BigInt(down.totals.total)).toBe(0n);
        },
      ),
    );
  });

  it("a full-period proration (rate 1) prices exactly like no proration", () => {
    fc.assert(
      fc.property(
        priceTable,
        subscriptionItems,
        fc.option(
          fc.oneof(
            percentages.filter((d) => d !== null),
            fc
              .bigInt({ min: 0n, max: 5_000_000n })
              .map((n): DiscountLike => ({ type: "flat", amount: n.toString(), currency_code: "USD" })),
            fc
              .bigInt({ min: 0n, max: 100_000n })
              .map((n): DiscountLike => ({ type: "flat_per_seat", amount: n.toString(), currency_code: "USD" })),
          ),
          { nil: null },
        ),
        fc.constantFrom(...COUNTRIES),
        (prices, items, discount, country) => {
          const plain: TotalsItem[] = items.map((i) => ({
            price: prices.get(i.price_id) as PriceLike,
            quantity: i.quantity,
          }));
          const base = { currency_code: "USD" as const, country_code: country, discount };
          const whole = computeTotals({ ...base, items: plain });
          const prorated = computeTotals({ ...base, items: plain.map((i) => ({ ...i, proration: ratio(1n, 1n) })) });
          expect(prorated.totals).toEqual(whole.totals);
          expect(prorated.tax_rates_used).toEqual(whole.tax_rates_used);
          expect(prorated.line_items.map(({ proration, ...line }) => line)).toEqual(whole.line_items);
          expect(prorated.line_items.every((line) => line.proration?.rate === "1")).toBe(true);
        },
      ),
    );
  });

  it("on baskets of charges and credits, the lines add up to the totals and the totals net them", () => {
    const lineArbitrary = fc.record({
      price_id: fc.constantFrom(...PRICE_IDS),
      quantity: fc.integer({ min: 1, max: 500 }),
      rate: fc.option(rates, { nil: null }),
      credit: fc.boolean(),
    });
    fc.assert(
      fc.property(
        priceTable,
        fc.array(lineArbitrary, { maxLength: 8 }),
        percentages,
        fc.constantFrom(...COUNTRIES),
        fc.bigInt({ min: 0n, max: 1_000_000n }),
        (prices, lines, discount, country, balance) => {
          const result = computeTotals({
            currency_code: "USD",
            country_code: country,
            discount,
            credit_balance: balance,
            items: lines.map((line) => ({
              price: prices.get(line.price_id) as PriceLike,
              quantity: line.quantity,
              proration: line.rate,
              credit: line.credit,
            })),
          });
          const total = sum(totalsOf(result));
          expect(BigInt(result.totals.total)).toBe(total);
          for (const field of ["subtotal", "discount", "tax"] as const) {
            expect(BigInt(result.totals[field])).toBe(sum(result.line_items.map((l) => BigInt(l.totals[field]))));
          }
          expect(sum(result.tax_rates_used.map((r) => BigInt(r.totals.total)))).toBe(total);
          result.line_items.forEach((line, i) => {
            const t = line.totals;
            expect(BigInt(t.subtotal) - BigInt(t.discount) + BigInt(t.tax)).toBe(BigInt(t.total));
            // A credit line is never positive, a charge never negative (the prices are not negative).
            if (lines[i]!.credit) expect(BigInt(t.total) <= 0n && line.quantity < 0).toBe(true);
            else expect(BigInt(t.total) >= 0n && line.quantity > 0).toBe(true);
          });
          const credit = BigInt(result.totals.credit);
          const toBalance = BigInt(result.totals.credit_to_balance);
          expect(credit).toBe(total > 0n ? minOf(balance, total) : 0n);
          expect(toBalance).toBe(total < 0n ? -total : 0n);
          expect(BigInt(result.totals.grand_total)).toBe(total - credit + toBalance);
        },
      ),
    );
  });
});
