import { describe, expect, it } from "vitest";
import { parseExpiry } from "@/lib/billing/payments";
import { formatCardNumber, formatExpiry } from "./card-format";

describe("card number as typed", () => {
  it("groups by four, Amex 4-6-5, drops what is not a digit, stops at 19 digits", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("4242 42")).toBe("4242 42");
    expect(formatCardNumber("4242")).toBe("4242");
    expect(formatCardNumber("4242-4242 x")).toBe("4242 4242");
    expect(formatCardNumber("378282246310005")).toBe("3782 822463 10005");
    expect(formatCardNumber("1".repeat(25)).replace(/ /g, "")).toHaveLength(19);
    expect(formatCardNumber("")).toBe("");
  });
});

describe("expiry as typed", () => {
  it('"1229" becomes "12 / 29", which the payment schema reads', () => {
    expect(formatExpiry("1229")).toBe("12 / 29");
    expect(parseExpiry(formatExpiry("1229"))).toEqual({ month: 12, year: 2029 });
  });

  it("typed one key at a time, with the separator once the month is complete", () => {
    let value = "";
    for (const key of "1229") value = formatExpiry(value + key, value);
    expect(value).toBe("12 / 29");
    expect(formatExpiry("1")).toBe("1");
    expect(formatExpiry("12")).toBe("12 / ");
    expect(formatExpiry("4")).toBe("04 / ");
    expect(formatExpiry("12/2030")).toBe("12 / 20");
  });

  it("deleting back into the month removes the separator", () => {
    expect(formatExpiry("12 /", "12 / ")).toBe("12");
    expect(formatExpiry("1", "12")).toBe("1");
    expect(formatExpiry("", "1")).toBe("");
  });
});
