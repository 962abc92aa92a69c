import { describe, expect, it } from "vitest";
import { CURRENCY_CODES } from "./currencies.ts";
import { convert, convertSum, EXCHANGE_RATES, EXCHANGE_RATES_AS_OF, exchangeRatio } from "./exchange-rates.ts";
import { parseDecimal } from "./money.ts";

const RATES = { ...EXCHANGE_RATES, USD: "1", EUR: "0.8", GBP: "0.75", JPY: "150", KRW: "1400" };

describe("the exchange rate table", () => {
  it("is dated and has a positive exact decimal rate for every currency", () => {
    expect(EXCHANGE_RATES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const code of CURRENCY_CODES) {
      const rate = parseDecimal(EXCHANGE_RATES[code]);
      expect(rate.numerator > 0n, code).toBe(true);
    }
    expect(EXCHANGE_RATES.USD).toBe("1");
  });
});

describe("exchangeRatio", () => {
  it("is exact between currencies with the same minor unit", () => {
    expect(exchangeRatio("EUR", "USD", RATES)).toEqual({ numerator: 5n, denominator: 4n });
    expect(exchangeRatio("USD", "EUR", RATES)).toEqual({ numerator: 4n, denominator: 5n });
  });

  it("accounts for minor units that differ (USD cents, JPY none)", () => {
    // 1 cent = 1.5 yen; 1 yen = 2/3 of a cent.
    expect(exchangeRatio("USD", "JPY", RATES)).toEqual({ numerator: 3n, denominator: 2n });
    expect(exchangeRatio("JPY", "USD", RATES)).toEqual({ numerator: 2n, denominator: 3n });
  });

  it("is the identity for a currency to itself", () => {
    expect(exchangeRatio("GBP", "GBP", RATES)).toEqual({ numerator: 1n, denominator: 1n });
  });
});

describe("convert", () => {
  it("converts to the target's minor unit", () => {
    expect(convert(1000n, "EUR", "USD", RATES)).toBe(1250n); // €10.00 → $12.50
    expect(convert(1000n, "USD", "JPY", RATES)).toBe(1500n); // $10.00 → ¥1,500
    expect(convert(1500n, "JPY", "USD", RATES)).toBe(1000n); // ¥1,500 → $10.00
    expect(convert(1000n, "USD", "USD", RATES)).toBe(1000n);
  });

  it("rounds halves away from zero, once", () => {
    // ¥1 = 0.666… cents → 1 cent; ¥2 = 1.333… → 1 cent; 1 cent = ¥1.5 → ¥2; -1 cent → -¥2.
    expect(convert(1n, "JPY", "USD", RATES)).toBe(1n);
    expect(convert(2n, "JPY", "USD", RATES)).toBe(1n);
    expect(convert(1n, "USD", "JPY", RATES)).toBe(2n);
    expect(convert(-1n, "USD", "JPY", RATES)).toBe(-2n);
  });

  it("converts between two currencies without a minor unit", () => {
    // ¥150 = $1 = ₩1,400.
    expect(convert(150n, "JPY", "KRW", RATES)).toBe(1400n);
  });
});

describe("convertSum", () => {
  it("sums exactly and rounds the sum once, not each part", () => {
    // Three times ¥1 (0.666… cents each): rounding each would give 3 cents, the exact sum is 2.
    const yen = { amount: 1n, currency: "JPY" as const };
    expect(convertSum([yen, yen, yen], "USD", RATES)).toBe(2n);
  });

  it("adds amounts already in the target as they are", () => {
    expect(
      convertSum(
        [
          { amount: 1000n, currency: "USD" },
          { amount: 800n, currency: "EUR" },
          { amount: 150n, currency: "JPY" },
        ],
        "USD",
        RATES,
      ),
    ).toBe(1000n + 1000n + 100n);
  });

  it("is zero for nothing", () => {
    expect(convertSum([], "EUR", RATES)).toBe(0n);
  });

  it("keeps every digit of large sums", () => {
    expect(convertSum([{ amount: 9_000_000_000_000_000n, currency: "EUR" }], "USD", RATES)).toBe(
      11_250_000_000_000_000n,
    );
  });
});
