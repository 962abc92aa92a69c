import { describe, expect, it } from "vitest";
import { dayStart, zoneDay } from "./zoned-days.ts";

describe("days of a time zone", () => {
  it("finds the day an instant falls on, across a day boundary", () => {
    expect(zoneDay(new Date("2031-01-10T23:30:00Z"), "Europe/Berlin")).toBe("2031-01-11");
    expect(zoneDay(new Date("2031-01-10T23:30:00Z"), "UTC")).toBe("2031-01-10");
    expect(zoneDay(new Date("2031-01-11T04:59:00Z"), "America/New_York")).toBe("2031-01-10");
  });

  it("finds when a day starts, across DST changes (23- and 25-hour days)", () => {
    const london = (day: string) => new Date(dayStart(day, "Europe/London")).toISOString();
    expect(london("2031-03-30")).toBe("2031-03-30T00:00:00.000Z");
    expect(london("2031-03-31")).toBe("2031-03-30T23:00:00.000Z");
    expect(dayStart("2031-03-31", "Europe/London") - dayStart("2031-03-30", "Europe/London")).toBe(23 * 3_600_000);
    expect(dayStart("2031-10-27", "Europe/London") - dayStart("2031-10-26", "Europe/London")).toBe(25 * 3_600_000);
    expect(new Date(dayStart("2031-05-02", "Asia/Kathmandu")).toISOString()).toBe("2031-05-01T18:15:00.000Z");
  });
});
