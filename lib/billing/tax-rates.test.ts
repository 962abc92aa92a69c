import { describe, expect, it } from "vitest";
import { ApiError } from "../errors.ts";
import { COUNTRY_CODES } from "../schemas/countries.ts";
import { compareRatio, parseDecimal, ratio } from "./money.ts";
import { EU_MEMBER_STATES } from "./tax-inclusive-countries.ts";
import { NO_TAX, parseTaxRate, STANDARD_TAX_RATES, taxRateFor } from "./tax-rates.ts";

const EU = EU_MEMBER_STATES;

describe("tax rate table", () => {
  it("covers every EU state and the other countries named in the issue", () => {
    for (const country of [...EU, "GB", "NO", "CH", "AU", "NZ", "CA", "JP", "SG", "IN", "ZA", "US"]) {
      expect(STANDARD_TAX_RATES[country], country).toBeDefined();
    }
    expect(EU).toHaveLength(27);
  });

  it("holds only known country codes and canonical rates from 0 to 1", () => {
    for (const [country, rate] of Object.entries(STANDARD_TAX_RATES)) {
      expect(COUNTRY_CODES as readonly string[], country).toContain(country);
      const parsed = parseTaxRate(rate);
      expect(parsed.rate, country).toBe(rate);
      expect(compareRatio(parsed.ratio, ratio(0n, 1n)) >= 0 && compareRatio(parsed.ratio, ratio(1n, 1n)) <= 0).toBe(
        true,
      );
    }
  });

  it("knows the standard rates", () => {
    expect(taxRateFor("GB")).toEqual({ rate: "0.2", ratio: ratio(1n, 5n) });
    expect(taxRateFor("DE").rate).toBe("0.19");
    expect(taxRateFor("FI").rate).toBe("0.255");
    expect(taxRateFor("CH").ratio).toEqual(parseDecimal("0.081"));
    expect(taxRateFor("CA").rate).toBe("0.05");
    expect(taxRateFor("JP").rate).toBe("0.1");
    expect(taxRateFor("AU").rate).toBe("0.1");
    expect(taxRateFor("US")).toEqual(NO_TAX);
  });

  it("charges no tax without an address or outside the table", () => {
    expect(taxRateFor(null)).toEqual(NO_TAX);
    expect(taxRateFor(undefined)).toEqual(NO_TAX);
    expect(taxRateFor("AQ")).toEqual(NO_TAX);
  });

  it("reads country codes in any case", () => {
    expect(taxRateFor("gb").rate).toBe("0.2");
  });

  it("lets the merchant's table override the seed, canonicalizing the rate", () => {
    const overrides = { US: "0.0725", DE: "0.190", GB: "0", AQ: "0.1" };
    expect(taxRateFor("US", overrides)).toEqual({ rate: "0.0725", ratio: ratio(29n, 400n) });
    expect(taxRateFor("DE", overrides).rate).toBe("0.19");
    expect(taxRateFor("GB", overrides)).toEqual(NO_TAX);
    expect(taxRateFor("AQ", overrides).rate).toBe("0.1");
    expect(taxRateFor("FR", overrides).rate).toBe("0.2");
    // An inherited property name is not a country with a rate.
    expect(taxRateFor("constructor", {})).toEqual(NO_TAX);
  });

  it("refuses a malformed or out-of-range override, naming it", () => {
    for (const bad of ["20%", "-0.1", "1.01", "", "0,2"]) {
      expect(() => taxRateFor("DE", { DE: bad })).toThrow(ApiError);
    }
    try {
      taxRateFor("DE", { DE: "2" });
    } catch (error) {
      expect((error as ApiError).errors?.[0]?.field).toBe("tax_rates.DE");
    }
    expect(taxRateFor("DE", { DE: "1" }).rate).toBe("1");
  });
});
