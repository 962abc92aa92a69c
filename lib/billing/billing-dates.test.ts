import { describe, expect, it } from "vitest";
import { addInterval } from "./billing-dates.ts";

const at = (iso: string) => new Date(iso);

describe("addInterval", () => {
  it("adds days and weeks", () => {
    expect(addInterval(at("2026-11-22T10:00:00Z"), "day", 30).toISOString()).toBe("2026-12-22T10:00:00.000Z");
    expect(addInterval(at("2026-12-30T00:00:00Z"), "week", 1).toISOString()).toBe("2027-01-06T00:00:00.000Z");
  });

  it("adds months keeping the day, or the last day of a shorter month", () => {
    expect(addInterval(at("2026-01-31T08:00:00Z"), "month", 1).toISOString()).toBe("2026-02-28T08:00:00.000Z");
    expect(addInterval(at("2028-01-31T08:00:00Z"), "month", 1).toISOString()).toBe("2028-02-29T08:00:00.000Z");
    expect(addInterval(at("2026-03-15T00:00:00Z"), "month", 10).toISOString()).toBe("2027-01-15T00:00:00.000Z");
  });

  it("adds years (29 February becomes 28 February)", () => {
    expect(addInterval(at("2028-02-29T00:00:00Z"), "year", 1).toISOString()).toBe("2029-02-28T00:00:00.000Z");
  });
});
