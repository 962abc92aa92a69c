import { describe, expect, it } from "vitest";
import { decimalAmount, withDecimals } from "./decimals.ts";

describe("decimal amounts beside minor units", () => {
  it("writes the amount in the currency's major unit, exactly", () => {
    expect(decimalAmount("24500", "USD")).toBe("245.00");
    expect(decimalAmount("-10000", "EUR")).toBe("-100.00");
    expect(decimalAmount("5", "USD")).toBe("0.05");
    expect(decimalAmount("1200", "JPY")).toBe("1200");
    expect(decimalAmount("123456789012345678901234567890", "USD")).toBe("1234567890123456789012345678.90");
  });

  it("leaves the cell empty without an amount or a known currency", () => {
    expect(decimalAmount("", "USD")).toBe("");
    expect(decimalAmount(null, "USD")).toBe("");
    expect(decimalAmount("12.5", "USD")).toBe("");
    expect(decimalAmount("10", null)).toBe("");
    expect(decimalAmount("10", "XXX")).toBe("");
  });

  it("puts each decimal column right after its minor-unit column", () => {
    const { columns, row } = withDecimals(["id", "total", "currency_code", "fee"], {
      total: "currency_code",
      fee: "currency_code",
    });
    expect(columns).toEqual(["id", "total", "total_decimal", "currency_code", "fee", "fee_decimal"]);
    expect(row(["txn_1", "61785", "USD", null])).toEqual(["txn_1", "61785", "617.85", "USD", null, ""]);
  });
});
