import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CalendarInterval } from "./billing-dates.ts";
import {
  type BillingCycle,
  periodAt,
  periodBounds,
  periodIndexAt,
  periodStart,
  sameCycle,
} from "./subscription-dates.ts";

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();
const monthly: BillingCycle = { interval: "month", frequency: 1 };
const yearly: BillingCycle = { interval: "year", frequency: 1 };

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

describe("periodBounds: examples", () => {
  it("a monthly subscription anchored on 31 January renews on the last day of February, then on 31 March", () => {
    const anchor = at("2026-01-31T09:30:00Z");
    const starts = [0, 1, 2, 3, 4].map((i) => iso(periodStart(anchor, monthly, i)));
    expect(starts).toEqual([
      "2026-01-31T09:30:00.000Z",
      "2026-02-28T09:30:00.000Z",
      "2026-03-31T09:30:00.000Z",
      "2026-04-30T09:30:00.000Z",
      "2026-05-31T09:30:00.000Z",
    ]);
    expect(iso(periodStart(at("2028-01-31T00:00:00Z"), monthly, 1))).toBe("2028-02-29T00:00:00.000Z");
    expect(periodBounds(anchor, monthly, 1)).toEqual({
      starts_at: at("2026-02-28T09:30:00Z"),
      ends_at: at("2026-03-31T09:30:00Z"),
    });
  });

  it("a yearly subscription anchored on 29 February renews on 28 February, and on 29 February in leap years", () => {
    const anchor = at("2028-02-29T12:00:00Z");
    expect([1, 2, 3, 4].map((i) => iso(periodStart(anchor, yearly, i)))).toEqual([
      "2029-02-28T12:00:00.000Z",
      "2030-02-28T12:00:00.000Z",
      "2031-02-28T12:00:00.000Z",
      "2032-02-29T12:00:00.000Z",
    ]);
  });

  it("weeks, days and multi-month cycles", () => {
    const anchor = at("2026-12-30T00:00:00Z");
    expect(periodBounds(anchor, { interval: "week", frequency: 2 }, 1)).toEqual({
      starts_at: at("2027-01-13T00:00:00Z"),
      ends_at: at("2027-01-27T00:00:00Z"),
    });
    expect(iso(periodStart(anchor, { interval: "day", frequency: 10 }, 3))).toBe("2027-01-29T00:00:00.000Z");
    expect(iso(periodStart(at("2026-08-31T00:00:00Z"), { interval: "month", frequency: 3 }, 2))).toBe(
      "2027-02-28T00:00:00.000Z",
    );
  });

  it("refuses a bad frequency or index", () => {
    expect(() => periodStart(at("2026-01-01T00:00:00Z"), { interval: "month", frequency: 0 }, 1)).toThrow(RangeError);
    expect(() => periodStart(at("2026-01-01T00:00:00Z"), monthly, -1)).toThrow(RangeError);
    expect(() => periodStart(at("2026-01-01T00:00:00Z"), monthly, 1.5)).toThrow(RangeError);
  });
});

describe("periodIndexAt: examples", () => {
  const anchor = at("2026-01-31T09:30:00Z");

  it("starts are inclusive, ends exclusive", () => {
    expect(periodIndexAt(anchor, monthly, anchor)).toBe(0);
    expect(periodIndexAt(anchor, monthly, at("2026-02-28T09:29:59.999Z"))).toBe(0);
    expect(periodIndexAt(anchor, monthly, at("2026-02-28T09:30:00Z"))).toBe(1);
    expect(periodIndexAt(anchor, monthly, at("2026-03-30T23:59:59Z"))).toBe(1);
    expect(periodIndexAt(anchor, monthly, at("2026-03-31T09:30:00Z"))).toBe(2);
  });

  it("answers for dates decades away", () => {
    expect(periodIndexAt(anchor, monthly, at("2126-01-31T09:30:00Z"))).toBe(1200);
    expect(periodIndexAt(anchor, monthly, at("2126-01-31T09:29:00Z"))).toBe(1199);
    expect(
      periodIndexAt(at("2000-01-01T00:00:00Z"), { interval: "day", frequency: 1 }, at("2100-01-01T00:00:00Z")),
    ).toBe(36525);
    expect(periodAt(anchor, yearly, at("2031-06-01T00:00:00Z"))).toEqual({
      index: 5,
      starts_at: at("2031-01-31T09:30:00Z"),
      ends_at: at("2032-01-31T09:30:00Z"),
    });
  });

  it("refuses a date before the anchor", () => {
    expect(() => periodIndexAt(anchor, monthly, at("2026-01-31T09:29:59Z"))).toThrow(RangeError);
  });

  it("compares cycles", () => {
    expect(sameCycle(monthly, { interval: "month", frequency: 1 })).toBe(true);
    expect(sameCycle(yearly, { interval: "month", frequency: 12 })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------

const MIN = Date.UTC(1971, 0, 1);
const MAX = Date.UTC(2200, 0, 1);
const anchors = fc.integer({ min: MIN, max: MAX }).map((ms) => new Date(ms));
const intervals = fc.constantFrom<CalendarInterval>("day", "week", "month", "year");
const cycles = fc.record({ interval: intervals, frequency: fc.integer({ min: 1, max: 24 }) });

describe("billing periods: properties", () => {
  it("twelve monthly renewals from any anchor end on the anchor's day (or the month's last day), same time", () => {
    fc.assert(
      fc.property(anchors, (anchor) => {
        for (let i = 1; i <= 12; i += 1) {
          const start = periodStart(anchor, monthly, i);
          const month = (anchor.getUTCMonth() + i) % 12;
          const year = anchor.getUTCFullYear() + Math.floor((anchor.getUTCMonth() + i) / 12);
          expect(start.getUTCFullYear()).toBe(year);
          expect(start.getUTCMonth()).toBe(month);
          expect(start.getUTCDate()).toBe(Math.min(anchor.getUTCDate(), lastDayOfMonth(year, month)));
          expect(start.getTime() % 86_400_000).toBe(anchor.getTime() % 86_400_000);
        }
        expect(periodStart(anchor, monthly, 12)).toEqual(periodStart(anchor, yearly, 1));
      }),
    );
  });

  it("periods are contiguous and strictly increasing", () => {
    fc.assert(
      fc.property(anchors, cycles, fc.integer({ min: 0, max: 400 }), (anchor, cycle, index) => {
        const period = periodBounds(anchor, cycle, index);
        const next = periodBounds(anchor, cycle, index + 1);
        expect(period.ends_at).toEqual(next.starts_at);
        expect(period.starts_at.getTime()).toBeLessThan(period.ends_at.getTime());
        expect(next.starts_at.getTime()).toBeLessThan(next.ends_at.getTime());
      }),
    );
  });

  it("periodIndexAt agrees with periodBounds, at the bounds and anywhere inside", () => {
    fc.assert(
      fc.property(
        anchors,
        cycles,
        fc.integer({ min: 0, max: 3000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (anchor, cycle, index, fraction) => {
          const { starts_at, ends_at } = periodBounds(anchor, cycle, index);
          expect(periodIndexAt(anchor, cycle, starts_at)).toBe(index);
          expect(periodIndexAt(anchor, cycle, new Date(ends_at.getTime() - 1))).toBe(index);
          expect(periodIndexAt(anchor, cycle, ends_at)).toBe(index + 1);
          const inside = starts_at.getTime() + Math.floor((ends_at.getTime() - starts_at.getTime()) * fraction);
          expect(periodIndexAt(anchor, cycle, new Date(inside))).toBe(index);
        },
      ),
    );
  });

  it("periodIndexAt of any later date is the period containing it", () => {
    fc.assert(
      fc.property(anchors, cycles, fc.integer({ min: 0, max: 60 * 365 * 86_400_000 }), (anchor, cycle, offset) => {
        const date = new Date(anchor.getTime() + offset);
        const { index, starts_at, ends_at } = periodAt(anchor, cycle, date);
        expect(index).toBeGreaterThanOrEqual(0);
        expect(starts_at.getTime()).toBeLessThanOrEqual(date.getTime());
        expect(date.getTime()).toBeLessThan(ends_at.getTime());
      }),
    );
  });
});
