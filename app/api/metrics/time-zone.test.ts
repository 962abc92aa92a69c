/**
 * Metrics in the days of a time zone (`time_zone`, ours; issue 26 item 11): UTC days by default,
 * as the API family, and the account's days when asked, across a day boundary and DST changes.
 */
import { describe, expect, it } from "vitest";
import { call, expectFieldError } from "@/lib/dev/test/api";
import { insertCompletedTransaction } from "@/lib/dev/test/metrics";
import { admin } from "@/lib/dev/test/resource";
import { zonedMidnight } from "@/lib/services/metrics/range";
import * as checkouts from "./checkout-conversion/route";
import * as refunds from "./refunds/route";
import * as revenue from "./revenue/route";

type Point = { timestamp: string; amount?: string; count?: number };

async function get(route: typeof revenue, path: string, query: string) {
  return call(route.GET, "GET", `/metrics/${path}?${query}`, { key: await admin() });
}

async function points(query: string): Promise<Record<string, Point>> {
  const res = await get(revenue, "revenue", query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Object.fromEntries(res.body.data.timeseries.map((p: Point) => [p.timestamp, p]));
}

describe("metrics in the account's time zone", () => {
  it("counts a sale at 23:30 UTC on the next day in Europe/Berlin, and on its UTC day by default", async () => {
    // 2031-01-10 23:30 UTC = 2031-01-11 00:30 in Berlin (UTC+1).
    await insertCompletedTransaction({ currency: "USD", earnings: "700", completedAt: "2031-01-10T23:30:00Z" });
    const utc = await points("from=2031-01-10&to=2031-01-12");
    expect(utc["2031-01-10T00:00:00.000000Z"]!.amount).toBe("700");
    expect(utc["2031-01-11T00:00:00.000000Z"]!.amount).toBe("0");

    const berlin = await get(revenue, "revenue", "from=2031-01-10&to=2031-01-12&time_zone=Europe/Berlin");
    expect(berlin.body.data.starts_at).toBe("2031-01-09T23:00:00.000000Z");
    expect(berlin.body.data.ends_at).toBe("2031-01-11T23:00:00.000000Z");
    expect(berlin.body.data.timeseries).toEqual([
      { timestamp: "2031-01-09T23:00:00.000000Z", amount: "0", count: 0 },
      { timestamp: "2031-01-10T23:00:00.000000Z", amount: "700", count: 1 },
    ]);
    // UTC asked for by name is the default.
    expect(await points("from=2031-01-10&to=2031-01-12&time_zone=UTC")).toEqual(utc);
  });

  it("has days of 23 and 25 hours across DST in Europe/London, each counting exactly its own sales", async () => {
    // Spring forward: 2031-03-30 01:00 UTC clocks go to 02:00 BST; fall back 2031-10-26 01:00 UTC.
    const sales: [string, string][] = [
      ["2031-03-29T23:59:00Z", "1"], // 29 March (GMT)
      ["2031-03-30T00:10:00Z", "10"], // 30 March 00:10 GMT
      ["2031-03-30T22:59:00Z", "100"], // 30 March 23:59 BST (the 23-hour day)
      ["2031-03-30T23:00:00Z", "1000"], // 31 March 00:00 BST
      ["2031-10-25T23:00:00Z", "20"], // 26 October 00:00 BST
      ["2031-10-26T23:59:00Z", "200"], // 26 October 23:59 GMT (the 25-hour day)
      ["2031-10-27T00:00:00Z", "2000"], // 27 October
    ];
    for (const [at, earnings] of sales) {
      await insertCompletedTransaction({ currency: "GBP", earnings, completedAt: at });
    }
    const london = async (from: string, to: string) => {
      const res = await get(revenue, "revenue", `from=${from}&to=${to}&time_zone=Europe/London`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.timeseries.map((p: Point) => [p.timestamp, p.count]);
    };
    expect(await london("2031-03-29", "2031-04-01")).toEqual([
      ["2031-03-29T00:00:00.000000Z", 1],
      ["2031-03-30T00:00:00.000000Z", 2],
      ["2031-03-30T23:00:00.000000Z", 1],
    ]);
    expect(await london("2031-10-26", "2031-10-28")).toEqual([
      ["2031-10-25T23:00:00.000000Z", 2],
      ["2031-10-27T00:00:00.000000Z", 1],
    ]);
  });

  it("works for zones at quarter hours (Asia/Kathmandu, +05:45) and for the other metrics", async () => {
    // 2031-05-01 18:14 UTC = 23:59 in Kathmandu; 18:15 UTC = 2 May 00:00.
    await insertCompletedTransaction({ currency: "USD", earnings: "5", completedAt: "2031-05-01T18:14:00Z" });
    await insertCompletedTransaction({ currency: "USD", earnings: "6", completedAt: "2031-05-01T18:15:00Z" });
    const res = await get(revenue, "revenue", "from=2031-05-01&to=2031-05-03&time_zone=Asia/Kathmandu");
    expect(res.body.data.timeseries.map((p: Point) => p.count)).toEqual([1, 1]);
    expect(res.body.data.timeseries[1].timestamp).toBe("2031-05-01T18:15:00.000000Z");
    for (const [route, path] of [
      [refunds, "refunds"],
      [checkouts, "checkout-conversion"],
    ] as const) {
      const zoned = await get(route as typeof revenue, path, "from=2031-05-01&to=2031-05-03&time_zone=Asia/Kathmandu");
      expect(zoned.status, path).toBe(200);
      expect(zoned.body.data.starts_at).toBe("2031-04-30T18:15:00.000000Z");
    }
  });

  it("refuses a zone that is not one with 400 naming time_zone", async () => {
    for (const zone of ["Mars/Olympus", "Europe/London'; --", "x".repeat(80), ""]) {
      const res = await get(revenue, "revenue", `from=2031-01-10&to=2031-01-12&time_zone=${encodeURIComponent(zone)}`);
      expectFieldError(res, "time_zone");
    }
  });

  it("finds the start of a day in a zone, DST or not", () => {
    expect(zonedMidnight("2031-03-30", "Europe/London")).toBe("2031-03-30T00:00:00.000000Z");
    expect(zonedMidnight("2031-03-31", "Europe/London")).toBe("2031-03-30T23:00:00.000000Z");
    expect(zonedMidnight("2031-03-09", "America/New_York")).toBe("2031-03-09T05:00:00.000000Z");
    expect(zonedMidnight("2031-03-10", "America/New_York")).toBe("2031-03-10T04:00:00.000000Z");
    expect(zonedMidnight("2031-01-01", "Pacific/Kiritimati")).toBe("2030-12-31T10:00:00.000000Z");
  });
});
