import { describe, expect, it } from "vitest";
import { isCountryCode } from "../schemas/countries.ts";
import { EU_MEMBER_STATES, TAX_INCLUSIVE_COUNTRIES, taxInclusiveIn } from "./tax-inclusive-countries.ts";

describe("taxInclusiveIn", () => {
  it("is true where consumer prices customarily include tax: the EU, EEA, UK, CH, AU, NZ, JP and others", () => {
    for (const country of [
      "DE",
      "FR",
      "IT",
      "ES",
      "NL",
      "IE",
      "GR",
      "PL",
      "SE",
      "NO",
      "IS",
      "LI",
      "CH",
      "GB",
      "AU",
      "NZ",
      "JP",
      "SG",
      "ZA",
      "IN",
    ]) {
      expect(taxInclusiveIn(country), country).toBe(true);
    }
  });

  it("is false where prices are quoted before tax (US, CA), for unlisted countries and without a country", () => {
    for (const country of ["US", "CA", "BR", "AQ", "XX", "", null, undefined]) {
      expect(taxInclusiveIn(country), String(country)).toBe(false);
    }
  });

  it("ignores case", () => {
    expect(taxInclusiveIn("de")).toBe(true);
    expect(taxInclusiveIn("us")).toBe(false);
  });

  it("lists the 27 EU member states, and only real country codes", () => {
    const eu = EU_MEMBER_STATES;
    expect(new Set(eu).size).toBe(27);
    for (const country of eu) expect(TAX_INCLUSIVE_COUNTRIES.has(country), country).toBe(true);
    for (const country of TAX_INCLUSIVE_COUNTRIES) expect(isCountryCode(country), country).toBe(true);
  });
});
