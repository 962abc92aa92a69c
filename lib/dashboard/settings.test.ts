import { describe, expect, it } from "vitest";
import { fractionToPercent, percentToFraction } from "./settings.ts";

describe("percentToFraction", () => {
  it("moves the decimal point two places, exactly", () => {
    expect(percentToFraction("20")).toBe("0.2");
    expect(percentToFraction("7.25")).toBe("0.0725");
    expect(percentToFraction("7,25")).toBe("0.0725");
    expect(percentToFraction("0")).toBe("0");
    expect(percentToFraction("100")).toBe("1");
    expect(percentToFraction("8.1")).toBe("0.081");
    expect(percentToFraction(" 25.5 ")).toBe("0.255");
    expect(percentToFraction(".5")).toBe("0.005");
    expect(percentToFraction("150")).toBe("1.5");
  });

  it("refuses what is not a plain number", () => {
    for (const text of ["", "abc", "-5", "5%", "1.2.3", "."]) expect(percentToFraction(text)).toBeNull();
  });
});

describe("fractionToPercent", () => {
  it("is the inverse", () => {
    expect(fractionToPercent("0.2")).toBe("20");
    expect(fractionToPercent("0.0725")).toBe("7.25");
    expect(fractionToPercent("0")).toBe("0");
    expect(fractionToPercent("1")).toBe("100");
    expect(fractionToPercent("0.081")).toBe("8.1");
    expect(fractionToPercent("0.255")).toBe("25.5");
  });
});
