import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError, isInvalidField } from "../errors.ts";
import { formatDecimal, ratio } from "./money.ts";
import {
  allowedModes,
  billingCycleChanged,
  formatRate,
  type ItemQuantity,
  itemChangeLines,
  nextBilledAtChangeLines,
  nextBilledAtChangeRate,
  PRORATION_BILLING_MODES,
  type ProrationBillingMode,
  periodMinutes,
  prorationRate,
  updateSummary,
  updateSummaryFromLineItems,
} from "./proration.ts";
import type { BillingCycle } from "./subscription-dates.ts";

const at = (iso: string) => new Date(iso);
const monthly: BillingCycle = { interval: "month", frequency: 1 };
const yearly: BillingCycle = { interval: "year", frequency: 1 };
const item = (price_id: string, quantity: number, billing_cycle: BillingCycle = monthly): ItemQuantity => ({
  price_id,
  quantity,
  billing_cycle,
});

// The API family's OpenAPI example of a subscription update preview.
const referencePeriod = { starts_at: at("2024-05-10T12:01:46.293Z"), ends_at: at("2024-06-10T12:01:46.293Z") };
const referenceChange = at("2024-05-13T10:36:57.967Z");

describe("prorationRate", () => {
  it("matches the API family's example to the digit: 40405 of 44640 minutes → 0.90513", () => {
    expect(periodMinutes(referencePeriod)).toBe(44640n);
    const rate = prorationRate(referencePeriod, referenceChange);
    expect(formatRate(rate)).toBe("0.90513");
    expect(rate).toEqual(ratio(90513n, 100000n));
    // 20 seats × 30.00 × 0.90513 = 543.078 → 54308, the example's subtotal.
    expect((60000n * rate.numerator * 2n + rate.denominator) / (2n * rate.denominator)).toBe(54308n);
  });

  it("is 1 at the start, 0 at the end, clamped outside, and counts whole minutes", () => {
    const period = { starts_at: at("2026-01-01T00:00:00Z"), ends_at: at("2026-01-01T00:10:00Z") };
    expect(formatRate(prorationRate(period, at("2026-01-01T00:00:00Z")))).toBe("1");
    expect(formatRate(prorationRate(period, at("2025-12-31T00:00:00Z")))).toBe("1");
    expect(formatRate(prorationRate(period, at("2026-01-01T00:10:00Z")))).toBe("0");
    expect(formatRate(prorationRate(period, at("2026-02-01T00:00:00Z")))).toBe("0");
    // 00:02:59 is in minute 2: 8 minutes of 10 left.
    expect(formatRate(prorationRate(period, at("2026-01-01T00:02:59.999Z")))).toBe("0.8");
    expect(formatRate(prorationRate(period, at("2026-01-01T00:09:59Z")))).toBe("0.1");
  });

  it("rounds to 5 places by the one rule (halves away from zero)", () => {
    // 1 minute of 3: 0.333333… → 0.33333; 2 of 3 → 0.66667.
    const period = { starts_at: at("2026-01-01T00:00:00Z"), ends_at: at("2026-01-01T00:03:00Z") };
    expect(formatRate(prorationRate(period, at("2026-01-01T00:02:00Z")))).toBe("0.33333");
    expect(formatRate(prorationRate(period, at("2026-01-01T00:01:00Z")))).toBe("0.66667");
    // 1 of 200000 = 0.000005 exactly: a half, rounded up.
    expect(formatRate(ratio(1n, 200000n))).toBe("0.00001");
    expect(formatRate(ratio(1n, 200001n))).toBe("0");
  });

  it("refuses a period shorter than a minute", () => {
    const period = { starts_at: at("2026-01-01T00:00:00Z"), ends_at: at("2026-01-01T00:00:30Z") };
    expect(() => prorationRate(period, at("2026-01-01T00:00:00Z"))).toThrow(RangeError);
  });

  it("stays within [0, 1] and never grows with time", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: 60_000, max: 4e10 }),
        fc.integer({ min: -1e10, max: 5e10 }),
        fc.integer({ min: 0, max: 1e9 }),
        (start, length, offset, later) => {
          const period = { starts_at: new Date(start), ends_at: new Date(start + length) };
          const rate = prorationRate(period, new Date(start + offset));
          const next = prorationRate(period, new Date(start + offset + later));
          expect(rate.numerator >= 0n && rate.numerator <= rate.denominator).toBe(true);
          expect(next.numerator * rate.denominator <= rate.numerator * next.denominator).toBe(true);
        },
      ),
    );
  });
});

describe("allowedModes", () => {
  const none = { itemsChanged: false, cycleChanged: false, nextBilledAtChanged: false, trialing: false };

  it("follows the API family's rules per kind of change, and their intersection", () => {
    expect(allowedModes({ ...none, itemsChanged: true })).toEqual([...PRORATION_BILLING_MODES]);
    expect(allowedModes({ ...none, itemsChanged: true, cycleChanged: true })).toEqual([
      "prorated_immediately",
      "full_immediately",
      "do_not_bill",
    ]);
    expect(allowedModes({ ...none, nextBilledAtChanged: true })).toEqual([
      "prorated_immediately",
      "prorated_next_billing_period",
      "do_not_bill",
    ]);
    expect(allowedModes({ ...none, itemsChanged: true, nextBilledAtChanged: true, cycleChanged: true })).toEqual([
      "prorated_immediately",
      "do_not_bill",
    ]);
    expect(allowedModes({ ...none, itemsChanged: true, trialing: true })).toEqual(["do_not_bill"]);
    expect(allowedModes({ ...none, nextBilledAtChanged: true, trialing: true })).toEqual(["do_not_bill"]);
    expect(allowedModes({ ...none, itemsChanged: true, paused: true })).toEqual(["do_not_bill"]);
    expect(allowedModes(none)).toEqual([...PRORATION_BILLING_MODES]);
  });
});

describe("itemChangeLines", () => {
  const rate = ratio(90513n, 100000n);
  const before = [item("pri_basic", 5), item("pri_addon", 1), item("pri_seats", 10)];
  const after = [item("pri_addon", 1), item("pri_vip", 1), item("pri_seats", 7), item("pri_pro", 20)];

  it("charges additions and increases, credits removals and reductions, in after's order then the removed", () => {
    expect(itemChangeLines(before, after, "prorated_immediately", rate)).toEqual([
      { price_id: "pri_vip", quantity: 1, credit: false, rate, new_cycle: false },
      { price_id: "pri_seats", quantity: 3, credit: true, rate, new_cycle: false },
      { price_id: "pri_pro", quantity: 20, credit: false, rate, new_cycle: false },
      { price_id: "pri_basic", quantity: 5, credit: true, rate, new_cycle: false },
    ]);
    expect(itemChangeLines(before, after, "prorated_next_billing_period", rate)).toEqual(
      itemChangeLines(before, after, "prorated_immediately", rate),
    );
  });

  it("full modes bill the whole price of what is added, and credit nothing", () => {
    for (const mode of ["full_immediately", "full_next_billing_period"] as const) {
      expect(itemChangeLines(before, after, mode, rate)).toEqual([
        { price_id: "pri_vip", quantity: 1, credit: false, rate: null, new_cycle: false },
        { price_id: "pri_pro", quantity: 20, credit: false, rate: null, new_cycle: false },
      ]);
    }
  });

  it("do_not_bill bills nothing; no change bills nothing", () => {
    expect(itemChangeLines(before, after, "do_not_bill", rate)).toEqual([]);
    expect(itemChangeLines(before, before, "prorated_immediately", rate)).toEqual([]);
  });

  it("a billing-frequency swap charges a whole new cycle and credits the rest of the old one", () => {
    const annual = [item("pri_pro_annual", 2, yearly)];
    const monthlyItems = [item("pri_pro_monthly", 2), item("pri_addon", 1)];
    expect(billingCycleChanged(monthlyItems, annual)).toBe(true);
    expect(billingCycleChanged(monthlyItems, [item("pri_other", 1)])).toBe(false);
    expect(billingCycleChanged(monthlyItems, [{ price_id: "pri_once", quantity: 1, billing_cycle: null }])).toBe(false);
    expect(itemChangeLines(monthlyItems, annual, "prorated_immediately", rate)).toEqual([
      { price_id: "pri_pro_annual", quantity: 2, credit: false, rate: ratio(1n, 1n), new_cycle: true },
      { price_id: "pri_pro_monthly", quantity: 2, credit: true, rate, new_cycle: false },
      { price_id: "pri_addon", quantity: 1, credit: true, rate, new_cycle: false },
    ]);
    expect(itemChangeLines(monthlyItems, annual, "full_immediately", rate)).toEqual([
      { price_id: "pri_pro_annual", quantity: 2, credit: false, rate: null, new_cycle: true },
    ]);
    expect(itemChangeLines(monthlyItems, annual, "do_not_bill", rate)).toEqual([]);
    for (const mode of ["prorated_next_billing_period", "full_next_billing_period"] as const) {
      expect(() => itemChangeLines(monthlyItems, annual, mode, rate)).toThrow(ApiError);
    }
  });

  it("refuses duplicate prices and bad quantities, naming the request's field", () => {
    const field = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        if (isInvalidField(error)) return error.errors[0]!.field;
        throw error;
      }
      return null;
    };
    expect(field(() => itemChangeLines(before, [item("pri_a", 1), item("pri_a", 2)], "do_not_bill", rate))).toBe(
      "items[1].price_id",
    );
    expect(field(() => itemChangeLines(before, [item("pri_a", 0)], "prorated_immediately", rate))).toBe(
      "items[0].quantity",
    );
    expect(() => itemChangeLines(before, after, "prorated_immediately", ratio(-1n, 2n))).toThrow(RangeError);
  });

  it("per price, charges minus credits is the change in quantity (prorated); full modes charge only increases", () => {
    const items = fc.uniqueArray(
      fc.record({ price_id: fc.constantFrom("a", "b", "c", "d", "e", "f"), quantity: fc.integer({ min: 1, max: 50 }) }),
      { selector: (i) => i.price_id, maxLength: 6 },
    );
    const withCycle = (list: { price_id: string; quantity: number }[]) =>
      list.map((i) => ({ ...i, billing_cycle: monthly }));
    fc.assert(
      fc.property(items, items, fc.constantFrom(...PRORATION_BILLING_MODES), (b, a, mode: ProrationBillingMode) => {
        const lines = itemChangeLines(withCycle(b), withCycle(a), mode, rate);
        const quantity = (list: typeof b, id: string) => list.find((i) => i.price_id === id)?.quantity ?? 0;
        for (const id of ["a", "b", "c", "d", "e", "f"]) {
          const mine = lines.filter((line) => line.price_id === id);
          expect(mine.length).toBeLessThanOrEqual(1);
          const net = mine.reduce((n, line) => n + (line.credit ? -line.quantity : line.quantity), 0);
          const change = quantity(a, id) - quantity(b, id);
          if (mode === "do_not_bill") expect(net).toBe(0);
          else if (mode.startsWith("full")) expect(net).toBe(Math.max(change, 0));
          else expect(net).toBe(change);
        }
        expect(lines.every((line) => line.quantity >= 1)).toBe(true);
      }),
    );
  });
});

describe("next_billed_at changes", () => {
  const period = { starts_at: at("2026-03-01T00:00:00Z"), ends_at: at("2026-04-01T00:00:00Z") }; // 44640 minutes
  const items = [item("pri_a", 2), item("pri_b", 1)];

  it("a later date charges the extra time, a sooner one credits it", () => {
    const later = nextBilledAtChangeLines(items, period, at("2026-04-16T12:00:00Z"), "prorated_immediately");
    const rate = nextBilledAtChangeRate(period, at("2026-04-16T12:00:00Z"));
    expect(formatDecimal(rate)).toBe("0.5"); // 15.5 days of 31
    expect(later).toEqual([
      { price_id: "pri_a", quantity: 2, credit: false, rate, new_cycle: false },
      { price_id: "pri_b", quantity: 1, credit: false, rate, new_cycle: false },
    ]);
    const sooner = nextBilledAtChangeLines(items, period, at("2026-03-25T00:00:00Z"), "prorated_next_billing_period");
    expect(sooner.map((line) => [line.credit, formatRate(line.rate ?? ratio(0n, 1n))])).toEqual([
      [true, "0.22581"],
      [true, "0.22581"],
    ]); // 7 days of 31 = 0.2258064…
    expect(formatRate(nextBilledAtChangeRate(period, at("2026-05-01T00:00:00Z")))).toBe("0.96774"); // 30 / 31
    expect(formatRate(nextBilledAtChangeRate(period, at("2026-06-01T00:00:00Z")))).toBe("1.96774"); // may exceed 1
  });

  it("the same date or do_not_bill bill nothing; full modes are refused", () => {
    expect(nextBilledAtChangeLines(items, period, period.ends_at, "prorated_immediately")).toEqual([]);
    expect(nextBilledAtChangeLines(items, period, at("2026-05-01T00:00:00Z"), "do_not_bill")).toEqual([]);
    expect(() => nextBilledAtChangeLines(items, period, at("2026-05-01T00:00:00Z"), "full_immediately")).toThrow(
      ApiError,
    );
  });
});

describe("updateSummary", () => {
  it("matches the API family's example: credit negative, result = charge + credit", () => {
    expect(updateSummary(83765n, -4927n, "USD")).toEqual({
      credit: { amount: "-4927", currency_code: "USD" },
      charge: { amount: "83765", currency_code: "USD" },
      result: { action: "charge", amount: "78838", currency_code: "USD" },
    });
    expect(updateSummary(83765n, 4927n, "USD")).toEqual(updateSummary(83765n, -4927n, "USD"));
  });

  it("is a credit when the credits exceed the charges, with a positive amount; nothing is a charge of 0", () => {
    expect(updateSummary(1000n, -2500n, "EUR").result).toEqual({
      action: "credit",
      amount: "1500",
      currency_code: "EUR",
    });
    expect(updateSummary(0n, 0n, "EUR")).toEqual({
      credit: { amount: "0", currency_code: "EUR" },
      charge: { amount: "0", currency_code: "EUR" },
      result: { action: "charge", amount: "0", currency_code: "EUR" },
    });
    expect(() => updateSummary(-1n, 0n, "EUR")).toThrow(RangeError);
  });

  it("sums priced lines: positive totals are charges, negative ones credits", () => {
    const lines = [{ totals: { total: "24637" } }, { totals: { total: "59128" } }, { totals: { total: "-4927" } }];
    expect(updateSummaryFromLineItems(lines, "USD")).toEqual(updateSummary(83765n, -4927n, "USD"));
  });
});
