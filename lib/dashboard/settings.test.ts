import { describe, expect, it } from "vitest";
import { type AccountSettings, fractionToPercent, percentToFraction, settingsStepsDone } from "./settings.ts";

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

describe("settingsStepsDone", () => {
  const fresh = {
    merchant_name: "Your company",
    merchant_address: null,
    portal_plan_price_ids: [],
    logo_url: null,
    updated_at: null,
  } as unknown as AccountSettings;

  it("counts nothing done on a new account", () => {
    expect(settingsStepsDone(fresh)).toEqual({ details: false, logo: false, taxMode: false });
  });

  it("wants both a name of the merchant's own and an address for the details", () => {
    expect(settingsStepsDone({ ...fresh, merchant_name: "Acme" }).details).toBe(false);
    expect(settingsStepsDone({ ...fresh, merchant_address: "1 Main St" }).details).toBe(false);
    expect(settingsStepsDone({ ...fresh, merchant_name: "Acme", merchant_address: "1 Main St" }).details).toBe(true);
  });

  it("sees a logo and a saved tax mode", () => {
    const done = settingsStepsDone({ ...fresh, logo_url: "https://x/logo.png", updated_at: "2026-11-24T06:00:00Z" });
    expect(done).toEqual({ details: false, logo: true, taxMode: true });
  });
});
