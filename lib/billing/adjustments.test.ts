import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isInvalidField } from "../errors.ts";
import {
  type AdjustmentTaxMode,
  addSplits,
  adjustedPayoutTotals,
  adjustedTotals,
  adjustItem,
  adjustmentAmounts,
  type ChargedLine,
  charged,
  feeShare,
  leftOn,
  type Split,
  taxRatesUsed,
} from "./adjustments.ts";
import { minOf } from "./money.ts";
import { computeTotals, payoutTotals } from "./totals.ts";

const line = (total: bigint, tax: bigint, taxRate = "0.2"): ChargedLine => ({ id: "txnitm_1", taxRate, total, tax });

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isInvalidField(error)) return `${error.errors[0]!.field}: ${error.errors[0]!.message}`;
    throw error;
  }
  throw new Error("no invalid_field error");
}

describe("adjustItem", () => {
  const l = line(1200n, 200n); // 10.00 + 20% tax
  const left = charged(l);

  it("splits a tax-inclusive partial amount by the line's rate", () => {
    expect(adjustItem({ type: "partial", amount: 600n }, l, left, "internal", "items[0]")).toEqual({
      subtotal: 500n,
      tax: 100n,
      total: 600n,
    });
    // 1 unit: 1 × 0.2/1.2 = 0.1667 → 0
    expect(adjustItem({ type: "partial", amount: 1n }, l, left, "internal", "items[0]")).toEqual({
      subtotal: 1n,
      tax: 0n,
      total: 1n,
    });
    // 3 units: 0.5 → 1 (half away from zero)
    expect(adjustItem({ type: "partial", amount: 3n }, l, left, "internal", "items[0]").tax).toBe(1n);
  });

  it("adds tax to an external (net) amount", () => {
    expect(adjustItem({ type: "partial", amount: 500n }, l, left, "external", "items[0]")).toEqual({
      subtotal: 500n,
      tax: 100n,
      total: 600n,
    });
    expect(fieldOf(() => adjustItem({ type: "partial", amount: 1001n }, l, left, "external", "items[0]"))).toMatch(
      /^items\[0\]\.amount: .*1000 is left/,
    );
  });

  it("full takes exactly what is left; the last partial takes the rest exactly", () => {
    expect(adjustItem({ type: "full", amount: null }, l, left, "internal", "items[0]")).toEqual(left);
    const first = adjustItem({ type: "partial", amount: 7n }, l, left, "internal", "items[0]");
    const rest = leftOn(l, [first]);
    expect(adjustItem({ type: "partial", amount: rest.total }, l, rest, "internal", "items[0]")).toEqual(rest);
    expect(addSplits([first, rest])).toEqual(left);
  });

  it("refuses more than is left, naming what is left", () => {
    expect(fieldOf(() => adjustItem({ type: "partial", amount: 1201n }, l, left, "internal", "items[2]"))).toBe(
      "items[2].amount: is more than what is left to adjust on txnitm_1: 1200 is left",
    );
    const done = leftOn(l, [left]);
    expect(fieldOf(() => adjustItem({ type: "full", amount: null }, l, done, "internal", "items[0]"))).toMatch(
      /^items\[0\]\.item_id: .*fully adjusted/,
    );
  });

  it("refuses zero, missing amounts, proration and a wrong full amount", () => {
    expect(fieldOf(() => adjustItem({ type: "partial", amount: 0n }, l, left, "internal", "i"))).toMatch(/^i\.amount/);
    expect(fieldOf(() => adjustItem({ type: "partial", amount: null }, l, left, "internal", "i"))).toMatch(
      /^i\.amount: is required/,
    );
    expect(fieldOf(() => adjustItem({ type: "proration", amount: 5n }, l, left, "internal", "i"))).toMatch(/^i\.type/);
    expect(fieldOf(() => adjustItem({ type: "full", amount: 5n }, l, left, "internal", "i"))).toMatch(/1200/);
  });

  it("tax items take tax only, up to the tax left", () => {
    expect(adjustItem({ type: "tax", amount: 50n }, l, left, "internal", "i")).toEqual({
      subtotal: 0n,
      tax: 50n,
      total: 50n,
    });
    expect(fieldOf(() => adjustItem({ type: "tax", amount: 201n }, l, left, "internal", "i"))).toMatch(/200 is left/);
    const untaxed = line(1000n, 0n, "0");
    expect(fieldOf(() => adjustItem({ type: "tax", amount: 1n }, untaxed, charged(untaxed), "internal", "i"))).toMatch(
      /^i\.type: .*no tax left/,
    );
  });
});

describe("feeShare", () => {
  it("is proportional, cumulative, and adds up to the fee exactly", () => {
    // fee 110 on 1200: half → 55, the rest → 55
    expect(feeShare(110n, 1200n, 0n, 600n)).toBe(55n);
    expect(feeShare(110n, 1200n, 600n, 600n)).toBe(55n);
    expect(feeShare(0n, 1200n, 0n, 600n)).toBe(0n);
    expect(feeShare(10n, 3n, 0n, 1n) + feeShare(10n, 3n, 1n, 1n) + feeShare(10n, 3n, 2n, 1n)).toBe(10n);
  });
});

describe("adjusted totals", () => {
  it("a full refund leaves nothing but the discount in the subtotal", () => {
    const details = computeTotals({
      currency_code: "USD",
      items: [
        {
          price: {
            id: "pri_1",
            product_id: "pro_1",
            tax_mode: "external",
            unit_price: { amount: "1000", currency_code: "USD" },
          },
          quantity: 1,
        },
      ],
      country_code: "GB",
      discount: { type: "flat", amount: "100", currency_code: "USD" },
    });
    const payout = payoutTotals(details.totals, { percent: "5", fixed: 50n });
    const totals = { ...details.totals, fee: payout.fee, earnings: payout.earnings };
    const l = { id: "txnitm_1", taxRate: details.line_items[0]!.tax_rate, total: 1080n, tax: 180n };
    const amounts = adjustmentAmounts([charged(l)], { total: 1080n, fee: BigInt(payout.fee), adjustedBefore: 0n });
    const adjusted = adjustedTotals(totals, amounts);
    expect(adjusted).toMatchObject({
      subtotal: "100",
      tax: "0",
      total: "0",
      grand_total: "0",
      fee: "0",
      earnings: "0",
    });
    expect(adjustedPayoutTotals(payout, amounts)).toMatchObject({
      total: "0",
      fee: "0",
      earnings: "0",
      exchange_rate: "1",
    });
    // Null before completion (no payout), and without an approved adjustment.
    expect(adjustedPayoutTotals(null, amounts)).toBeNull();
    expect(adjustedPayoutTotals(payout, null)).toBeNull();
  });

  it("fee and earnings stay null before completion", () => {
    const amounts = adjustmentAmounts([{ subtotal: 100n, tax: 20n, total: 120n }], {
      total: 1200n,
      fee: null,
      adjustedBefore: 0n,
    });
    expect(amounts.fee).toBe(0n);
    expect(amounts.earnings).toBe(100n);
  });

  it("groups items by tax rate", () => {
    expect(
      taxRatesUsed([
        { rate: "0.2", split: { subtotal: 10n, tax: 2n, total: 12n } },
        { rate: "0", split: { subtotal: 5n, tax: 0n, total: 5n } },
        { rate: "0.2", split: { subtotal: 10n, tax: 2n, total: 12n } },
      ]),
    ).toEqual([
      { tax_rate: "0.2", totals: { subtotal: "20", tax: "4", total: "24" } },
      { tax_rate: "0", totals: { subtotal: "5", tax: "0", total: "5" } },
    ]);
  });
});

describe("properties", () => {
  const rates = fc.constantFrom("0", "0.05", "0.07", "0.19", "0.2", "0.21", "0.255");
  const lineArb = fc.tuple(fc.bigInt({ min: 1n, max: 10_000_000n }), rates).map(([net, rate]): ChargedLine => {
    const r = Number.parseFloat(rate); // only to build a plausible line; the engine never sees it
    const tax = BigInt(Math.round(Number(net) * r));
    return { id: "txnitm_p", taxRate: rate, total: net + tax, tax };
  });
  const requestArb = fc.record({
    type: fc.constantFrom("full", "partial", "partial", "partial", "tax"),
    fraction: fc.integer({ min: 0, max: 1000 }),
    mode: fc.constantFrom<AdjustmentTaxMode>("internal", "external"),
  });

  it("the refunds of a line never exceed its charge, and each is net + tax = total", () => {
    fc.assert(
      fc.property(lineArb, fc.array(requestArb, { maxLength: 12 }), (l, requests) => {
        const done: Split[] = [];
        for (const r of requests) {
          const left = leftOn(l, done);
          const base = r.type === "tax" ? left.tax : r.mode === "external" ? left.subtotal : left.total;
          const amount = r.type === "full" ? null : (base * BigInt(r.fraction)) / 1000n;
          try {
            const split = adjustItem({ type: r.type as "full", amount }, l, left, r.mode, "i");
            expect(split.subtotal + split.tax).toBe(split.total);
            expect(split.subtotal >= 0n && split.tax >= 0n && split.total > 0n).toBe(true);
            done.push(split);
          } catch (error) {
            if (!isInvalidField(error)) throw error;
          }
          const used = addSplits(done);
          const c = charged(l);
          expect(used.total <= c.total && used.tax <= c.tax && used.subtotal <= c.subtotal).toBe(true);
        }
        // Whatever happened, a final full refund returns exactly the charge in all.
        const left = leftOn(l, done);
        if (left.total > 0n) done.push(adjustItem({ type: "full", amount: null }, l, left, "internal", "i"));
        expect(addSplits(done)).toEqual(charged(l));
      }),
    );
  });

  it("fee shares add up to at most the fee, exactly the fee when all is returned, totals = sum of items", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 1_000_000n }),
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.array(fc.integer({ min: 1, max: 1000 }), { maxLength: 10 }),
        (total, feeRaw, parts) => {
          const fee = minOf(feeRaw, total);
          let before = 0n;
          let shares = 0n;
          for (const part of parts) {
            const now = ((total - before) * BigInt(part)) / 1000n;
            const items: Split[] = [{ subtotal: now, tax: 0n, total: now }];
            const amounts = adjustmentAmounts(items, { total, fee, adjustedBefore: before });
            expect(amounts.total).toBe(addSplits(items).total);
            expect(amounts.fee >= 0n).toBe(true);
            shares += amounts.fee;
            before += now;
          }
          expect(shares <= fee).toBe(true);
          shares += feeShare(fee, total, before, total - before);
          expect(shares).toBe(fee);
        },
      ),
    );
  });
});
