import { describe, expect, it } from "vitest";
import { refundLabel, taxRateText } from "./transactions.ts";

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

describe("refundLabel", () => {
  const txn = (total: string, adjusted?: string) => ({
    details: {
      totals: { grand_total: total },
      adjusted_totals: adjusted === undefined ? undefined : { grand_total: adjusted },
    },
  });

  it("says nothing while nothing was taken back", () => {
    expect(refundLabel(txn("1000"))).toBeNull();
    expect(refundLabel(txn("1000", "1000"))).toBeNull();
    expect(refundLabel(txn("1000", "1200"))).toBeNull();
  });

  it("tells a partial from a full refund", () => {
    expect(refundLabel(txn("1000", "400"))).toBe("Partially refunded");
    expect(refundLabel(txn("1000", "0"))).toBe("Refunded");
    expect(refundLabel(txn("1000", "-5"))).toBe("Refunded");
  });
});
