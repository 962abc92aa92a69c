import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import {
  allocate,
  formatAmount,
  formatDecimal,
  multiplyRound,
  parseAmount,
  parseDecimal,
  ratio,
  roundHalfAwayFromZero,
  sum,
} from "./money.ts";

describe("amounts", () => {
  it("parses and formats the API's string amounts", () => {
    expect(parseAmount("1050")).toBe(1050n);
    expect(parseAmount("0")).toBe(0n);
    expect(parseAmount("-250")).toBe(-250n);
    expect(parseAmount("123456789012345678901234")).toBe(123456789012345678901234n);
    expect(formatAmount(1050n)).toBe("1050");
    expect(formatAmount(-250n)).toBe("-250");
    expect(formatAmount(0n)).toBe("0");
  });

  it("refuses text that is not a whole number, naming the field", () => {
    for (const text of ["", " 1", "1.5", "+1", "1e3", "--1", "abc", "1,000"]) {
      expect(() => parseAmount(text, "items[0].price.unit_price.amount")).toThrow(ApiError);
    }
    try {
      parseAmount("1.5", "discount.amount");
    } catch (error) {
      expect((error as ApiError).errors?.[0]?.field).toBe("discount.amount");
      expect((error as ApiError).errors?.[0]?.message).toMatch(/whole number/);
    }
  });

  it("round-trips every bigint through its string", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (n) => parseAmount(formatAmount(n)) === n),
      { numRuns: 300 },
    );
  });
});

describe("rationals", () => {
  it("parses decimal strings exactly and reduces them", () => {
    expect(parseDecimal("0.2")).toEqual({ numerator: 1n, denominator: 5n });
    expect(parseDecimal("0.20")).toEqual({ numerator: 1n, denominator: 5n });
    expect(parseDecimal("12.5")).toEqual({ numerator: 25n, denominator: 2n });
    expect(parseDecimal("100")).toEqual({ numerator: 100n, denominator: 1n });
    expect(parseDecimal("-0.5")).toEqual({ numerator: -1n, denominator: 2n });
    expect(parseDecimal("0.255")).toEqual({ numerator: 51n, denominator: 200n });
    expect(() => parseDecimal(".5")).toThrow(ApiError);
    expect(() => parseDecimal("0.2.1")).toThrow(ApiError);
    expect(() => parseDecimal("1e-1")).toThrow(ApiError);
  });

  it("formats terminating rationals as the shortest decimal", () => {
    expect(formatDecimal(ratio(1n, 5n))).toBe("0.2");
    expect(formatDecimal(ratio(81n, 1000n))).toBe("0.081");
    expect(formatDecimal(ratio(3n, 1n))).toBe("3");
    expect(formatDecimal(ratio(0n, 7n))).toBe("0");
    expect(formatDecimal(ratio(-1n, 2n))).toBe("-0.5");
    expect(formatDecimal(ratio(1n, -20n))).toBe("-0.05");
    expect(() => formatDecimal(ratio(1n, 3n))).toThrow(RangeError);
  });

  it("round-trips decimal strings in canonical form", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.nat(8), (digits, places) => {
        const text = formatDecimal(ratio(digits, 10n ** BigInt(places)));
        expect(formatDecimal(parseDecimal(text))).toBe(text);
        expect(parseDecimal(text)).toEqual(ratio(digits, 10n ** BigInt(places)));
      }),
      { numRuns: 300 },
    );
  });
});

describe("roundHalfAwayFromZero (the one rounding rule)", () => {
  it("rounds to the nearest, halves away from zero", () => {
    expect(roundHalfAwayFromZero(5n, 2n)).toBe(3n); // 2.5 → 3 (banker's would give 2)
    expect(roundHalfAwayFromZero(7n, 2n)).toBe(4n); // 3.5 → 4
    expect(roundHalfAwayFromZero(-5n, 2n)).toBe(-3n);
    expect(roundHalfAwayFromZero(5n, -2n)).toBe(-3n);
    expect(roundHalfAwayFromZero(-5n, -2n)).toBe(3n);
    expect(roundHalfAwayFromZero(249n, 100n)).toBe(2n);
    expect(roundHalfAwayFromZero(251n, 100n)).toBe(3n);
    expect(roundHalfAwayFromZero(-249n, 100n)).toBe(-2n);
    expect(roundHalfAwayFromZero(0n, 3n)).toBe(0n);
    expect(roundHalfAwayFromZero(1n, 3n)).toBe(0n);
    expect(roundHalfAwayFromZero(2n, 3n)).toBe(1n);
    expect(() => roundHalfAwayFromZero(1n, 0n)).toThrow(RangeError);
  });

  it("rounds VAT the way an invoice checked by hand does", () => {
    // 20% of $0.13 is 2.6 cents → 3 cents; 10% of 5 cents is half a cent → 1 cent.
    expect(multiplyRound(13n, ratio(1n, 5n))).toBe(3n);
    expect(multiplyRound(1000n, ratio(1n, 5n))).toBe(200n);
    expect(multiplyRound(5n, ratio(1n, 10n))).toBe(1n); // 0.5 → 1
    expect(multiplyRound(-5n, ratio(1n, 10n))).toBe(-1n); // symmetric for credits
  });

  it("is within half a unit of the exact value, symmetric, and exact on integers", () => {
    const big = fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n });
    const positive = fc.bigInt({ min: 1n, max: 10n ** 12n });
    fc.assert(
      fc.property(big, positive, (n, d) => {
        const r = roundHalfAwayFromZero(n, d);
        const error = r * d - n; // (r − n/d) × d
        expect(2n * (error < 0n ? -error : error) <= d).toBe(true);
        if (2n * error === d) expect(n > 0n).toBe(true); // a half went up only for positives
        if (2n * error === -d) expect(n < 0n).toBe(true);
        expect(roundHalfAwayFromZero(-n, d)).toBe(-r);
        expect(roundHalfAwayFromZero(n * d, d)).toBe(n);
      }),
      { numRuns: 500 },
    );
  });
});

describe("allocate (largest remainder)", () => {
  it("splits exactly, remainders to the largest fractions, ties to the first", () => {
    expect(allocate(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(allocate(1001n, [1000n, 2000n, 1000n])).toEqual([250n, 501n, 250n]);
    expect(allocate(10n, [0n, 5n, 0n])).toEqual([0n, 10n, 0n]);
    expect(allocate(0n, [0n, 0n])).toEqual([0n, 0n]);
    expect(allocate(-100n, [1n, 1n, 1n])).toEqual([-34n, -33n, -33n]);
    expect(allocate(0n, [])).toEqual([]);
    expect(() => allocate(5n, [0n, 0n])).toThrow(RangeError);
    expect(() => allocate(5n, [1n, -1n])).toThrow(RangeError);
  });

  it("parts add up, each within one unit of its exact share, zero weights get zero", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 9n }), { minLength: 1, maxLength: 12 }),
        (amount, weights) => {
          fc.pre(sum(weights) > 0n);
          const parts = allocate(amount, weights);
          const total = sum(weights);
          expect(sum(parts)).toBe(amount);
          parts.forEach((part, i) => {
            const error = part * total - amount * weights[i]!; // (part − exact share) × total
            expect((error < 0n ? -error : error) < total).toBe(true);
            if (weights[i] === 0n) expect(part).toBe(0n);
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});
