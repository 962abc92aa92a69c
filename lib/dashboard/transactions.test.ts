import { describe, expect, it } from "vitest";
import { taxRateText } from "./transactions.ts";

describe("taxRateText", () => {
  it("writes a decimal fraction as a percentage, exactly", () => {
    expect(taxRateText("0.2")).toBe("20%");
    expect(taxRateText("0.0725")).toBe("7.25%");
    expect(taxRateText("0.19")).toBe("19%");
    expect(taxRateText("0")).toBe("0%");
    expect(taxRateText("1")).toBe("100%");
    expect(taxRateText("0.123456")).toBe("12.3456%");
    expect(taxRateText("0.20")).toBe("20%");
  });

  it("shows what is not a decimal as it is", () => {
    for (const text of ["abc", "-0.2", "1e-2", "0.2.3"]) expect(taxRateText(text)).toBe(text);
  });
});
