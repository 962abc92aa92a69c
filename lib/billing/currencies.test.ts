import { describe, expect, it } from "vitest";
import { formatMinor, isCurrencyCode, minorUnitDigits, parseMajor } from "./currencies";

describe("currencies", () => {
  it("knows minor units", () => {
    expect(minorUnitDigits("USD")).toBe(2);
    expect(minorUnitDigits("JPY")).toBe(0);
    expect(isCurrencyCode("USD")).toBe(true);
    expect(isCurrencyCode("usd")).toBe(false);
    expect(isCurrencyCode("XXX")).toBe(false);
  });

  it("formats minor units exactly", () => {
    expect(formatMinor("1050", "USD")).toBe("10.50");
    expect(formatMinor("5", "USD")).toBe("0.05");
    expect(formatMinor("0", "EUR")).toBe("0.00");
    expect(formatMinor("1000", "JPY")).toBe("1000");
    expect(formatMinor("-250", "GBP")).toBe("-2.50");
    expect(formatMinor("123456789012345678901", "USD")).toBe("1234567890123456789.01");
  });

  it("parses major units without rounding", () => {
    expect(parseMajor("10.5", "USD")).toBe("1050");
    expect(parseMajor("10", "USD")).toBe("1000");
    expect(parseMajor("0.05", "USD")).toBe("5");
    expect(parseMajor("1,000", "JPY")).toBe("1000");
    expect(parseMajor("10.555", "USD")).toBeNull();
    expect(parseMajor("10.5", "JPY")).toBeNull();
    expect(parseMajor("abc", "USD")).toBeNull();
    expect(parseMajor("-1", "USD")).toBeNull();
  });
});
