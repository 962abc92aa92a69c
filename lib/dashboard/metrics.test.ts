import { describe, expect, it } from "vitest";
import {
  addMonths,
  apiRange,
  churnPoints,
  customRangeErrors,
  percent,
  presetRange,
  rateText,
  revenueTotals,
  sumAmounts,
} from "./metrics.ts";

describe("date ranges of the metrics page", () => {
  it("ends presets today, both ends included", () => {
    expect(presetRange("7d", "2026-03-10")).toEqual({ first: "2026-03-04", last: "2026-03-10" });
    expect(presetRange("30d", "2026-03-10")).toEqual({ first: "2026-02-09", last: "2026-03-10" });
    expect(presetRange("90d", "2026-03-10")).toEqual({ first: "2025-12-11", last: "2026-03-10" });
    expect(presetRange("12m", "2026-03-10")).toEqual({ first: "2025-03-11", last: "2026-03-10" });
  });

  it("sends the day after the last as the API's exclusive `to`", () => {
    expect(apiRange({ first: "2026-02-01", last: "2026-02-28" })).toEqual({ from: "2026-02-01", to: "2026-03-01" });
  });

  it("moves by calendar months, clamping to the month's last day", () => {
    expect(addMonths("2026-03-31", -1)).toBe("2026-02-28");
    expect(addMonths("2024-03-31", -1)).toBe("2024-02-29");
    expect(addMonths("2026-01-15", -12)).toBe("2025-01-15");
  });

  it("explains what is wrong with a custom range", () => {
    expect(customRangeErrors({ first: "", last: "" })).toEqual({
      first: "Enter a start date.",
      last: "Enter an end date.",
    });
    expect(customRangeErrors({ first: "2026-02-30", last: "2026-03-01" }).first).toMatch(/valid date/);
    expect(customRangeErrors({ first: "2026-03-02", last: "2026-03-01" }).last).toMatch(/on or after/);
    expect(customRangeErrors({ first: "2026-01-01", last: "2028-12-31" })).toEqual({});
    expect(customRangeErrors({ first: "2026-01-01", last: "2029-01-01" }).last).toMatch(/1096 days/);
    expect(customRangeErrors({ first: "2026-03-01", last: "2026-03-01" })).toEqual({});
  });

  it("totals exactly, beyond floating point", () => {
    const metrics = {
      currency_code: "USD" as const,
      interval: "day" as const,
      starts_at: "",
      ends_at: "",
      updated_at: "",
      timeseries: [
        { timestamp: "", amount: "9007199254740993", count: 2 },
        { timestamp: "", amount: "1", count: 1 },
      ],
    };
    expect(revenueTotals(metrics)).toEqual({ amount: "9007199254740994", count: 3 });
  });
});

describe("the figures of the metrics page", () => {
  const envelope = { interval: "day" as const, starts_at: "", ends_at: "", updated_at: "" };

  it("sums amounts exactly", () => {
    expect(sumAmounts(["9007199254740993", "1", "-4"])).toBe("9007199254740990");
    expect(sumAmounts([])).toBe("0");
  });

  it("writes percentages rounded half up, and a dash without a denominator", () => {
    expect(percent(1, 3)).toBe("33.3%");
    expect(percent(2, 3)).toBe("66.7%");
    expect(percent(1, 2, 2)).toBe("50.00%");
    expect(percent(0, 0)).toBe("–");
    expect(rateText("0.033113")).toBe("3.3%");
    expect(rateText("1.000000")).toBe("100.0%");
    expect(rateText("0.000000")).toBe("0.0%");
  });

  it("works out each day's churn against the subscribers active when it began", () => {
    const point = (day: string, churned: number) => ({
      timestamp: `${day}T00:00:00.000000Z`,
      new: "0",
      expansion: "0",
      contraction: "0",
      churn: "0",
      reactivation: "0",
      new_subscribers: 0,
      reactivated_subscribers: 0,
      churned_subscribers: churned,
    });
    const movements = {
      ...envelope,
      currency_code: "USD" as const,
      active_subscribers_at_start: 10,
      timeseries: [point("2026-03-01", 1), point("2026-03-02", 2)],
    };
    const active = {
      ...envelope,
      timeseries: [
        { timestamp: "2026-03-01T00:00:00.000000Z", count: 9 },
        { timestamp: "2026-03-02T00:00:00.000000Z", count: 7 },
      ],
    };
    expect(churnPoints(movements, active)).toEqual([
      { day: "2026-03-01", churned: 1, activeAtStart: 10 },
      { day: "2026-03-02", churned: 2, activeAtStart: 9 },
    ]);
  });
});

describe("report dates in the account's zone", () => {
  it("sends each day as the instant it starts there, and shows it back as the day", async () => {
    const { reportFilters, describeFilters } = await import("./reports.ts");
    const form = { type: "transactions" as const, from: "2031-03-30", to: "2031-03-30", values: {} };
    const { filters } = reportFilters(form, "Europe/London");
    expect(filters).toEqual([
      { name: "updated_at", operator: "gte", value: "2031-03-30T00:00:00.000Z" },
      { name: "updated_at", operator: "lt", value: "2031-03-30T23:00:00.000Z" },
    ]);
    expect(describeFilters({ filters }, "Europe/London")).toBe(
      "updated on or after 2031-03-30 · updated before 2031-03-31",
    );
    expect(reportFilters(form).filters[1]).toEqual({ name: "updated_at", operator: "lt", value: "2031-03-31" });
  });
});
