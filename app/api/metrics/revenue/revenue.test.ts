/**
 * GET /metrics/revenue (spec: Revenue metrics) and the daily rollup behind it. Each test uses its
 * own years, so the tests of this file (one database) never see each other's transactions.
 */
import { afterEach, describe, expect, it } from "vitest";
import { convert, convertSum } from "@/lib/billing/exchange-rates";
import { pool } from "@/lib/db/connection";
import { call, errorFields, expectError, expectFieldError } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { completeTransaction, insertCompletedTransaction, rollupRows, setStatus } from "@/lib/dev/test/metrics";
import { admin } from "@/lib/dev/test/resource";
import { makeReady } from "@/lib/dev/test/transactions";
import * as revenue from "./route";

async function get(from: string | undefined, to: string | undefined, key?: string) {
  const params = new URLSearchParams();
  if (from !== undefined) params.set("from", from);
  if (to !== undefined) params.set("to", to);
  return call(revenue.GET, "GET", `/metrics/revenue?${params}`, { key: key ?? (await admin()) });
}

async function series(from: string, to: string) {
  const res = await get(from, to);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as {
    currency_code: string;
    timeseries: { timestamp: string; amount: string; count: number }[];
    starts_at: string;
    ends_at: string;
    interval: string;
    updated_at: string;
  };
}

afterEach(() => {
  delete process.env.BILLING_PRIMARY_CURRENCY;
});

describe("GET /metrics/revenue", () => {
  it("sums each UTC day's earnings over currencies, converted to the primary currency", async () => {
    await insertCompletedTransaction({ currency: "USD", earnings: "1000", completedAt: "2030-01-01T10:00:00Z" });
    await insertCompletedTransaction({ currency: "USD", earnings: "250", completedAt: "2030-01-01T00:00:00Z" });
    await insertCompletedTransaction({ currency: "EUR", earnings: "800", completedAt: "2030-01-01T23:59:59.999Z" });
    await insertCompletedTransaction({ currency: "JPY", earnings: "1540", completedAt: "2030-01-03T00:00:00Z" });
    // Outside the range: the day before `from`, and `to` itself (exclusive).
    await insertCompletedTransaction({ currency: "USD", earnings: "7", completedAt: "2029-12-31T23:59:59Z" });
    await insertCompletedTransaction({ currency: "USD", earnings: "9", completedAt: "2030-01-04T00:00:00Z" });

    const data = await series("2030-01-01", "2030-01-04");
    expect(Object.keys(data)).toEqual([
      "currency_code",
      "timeseries",
      "starts_at",
      "ends_at",
      "interval",
      "updated_at",
    ]);
    expect(data.currency_code).toBe("USD");
    expect(data.interval).toBe("day");
    expect(data.starts_at).toBe("2030-01-01T00:00:00.000000Z");
    expect(data.ends_at).toBe("2030-01-04T00:00:00.000000Z");
    expect(data.timeseries).toEqual([
      {
        timestamp: "2030-01-01T00:00:00.000000Z",
        amount: convertSum(
          [
            { amount: 1250n, currency: "USD" },
            { amount: 800n, currency: "EUR" },
          ],
          "USD",
        ).toString(),
        count: 3,
      },
      { timestamp: "2030-01-02T00:00:00.000000Z", amount: "0", count: 0 },
      { timestamp: "2030-01-03T00:00:00.000000Z", amount: convert(1540n, "JPY", "USD").toString(), count: 1 },
    ]);
    // By hand, at the table's rates (EUR 0.86, JPY 154 a dollar): €8.00 = $9.30..., ¥1,540 = $10.00.
    expect(data.timeseries[0]!.amount).toBe(String(1250 + 930));
    expect(data.timeseries[2]!.amount).toBe("1000");
    expect(data.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  it("reports in BILLING_PRIMARY_CURRENCY, in its minor unit", async () => {
    await insertCompletedTransaction({ currency: "USD", earnings: "1000", completedAt: "2031-05-05T12:00:00Z" });
    await insertCompletedTransaction({ currency: "JPY", earnings: "500", completedAt: "2031-05-05T12:00:00Z" });
    process.env.BILLING_PRIMARY_CURRENCY = "JPY";
    const data = await series("2031-05-05", "2031-05-06");
    expect(data.currency_code).toBe("JPY");
    expect(data.timeseries).toEqual([{ timestamp: "2031-05-05T00:00:00.000000Z", amount: "2040", count: 2 }]);
  });

  it("fills days without revenue with zero, one entry per day across months and a leap day", async () => {
    const data = await series("2032-02-27", "2032-03-02");
    expect(data.timeseries.map((p) => p.timestamp.slice(0, 10))).toEqual([
      "2032-02-27",
      "2032-02-28",
      "2032-02-29",
      "2032-03-01",
    ]);
    expect(data.timeseries.every((p) => p.amount === "0" && p.count === 0)).toBe(true);
  });

  it("returns an empty timeseries when from equals to", async () => {
    await insertCompletedTransaction({ currency: "USD", earnings: "1000", completedAt: "2033-01-01T12:00:00Z" });
    const data = await series("2033-01-01", "2033-01-01");
    expect(data.timeseries).toEqual([]);
    expect(data.starts_at).toBe("2033-01-01T00:00:00.000000Z");
    expect(data.ends_at).toBe("2033-01-01T00:00:00.000000Z");
  });

  it("refuses from after to, naming from", async () => {
    const error = expectFieldError(await get("2030-01-02", "2030-01-01"), "from");
    expect(error.errors?.[0]?.message).toContain("on or before");
  });

  it("refuses dates that are not RFC 3339 full-dates, naming the field", async () => {
    for (const bad of ["2030-02-30", "2030-1-01", "2030-01-01T00:00:00Z", "yesterday", "0000-01-01", "", "20300101"]) {
      expectFieldError(await get(bad, "2030-12-01"), "from");
      expectFieldError(await get("2030-01-01", bad), "to");
    }
  });

  it("requires from and to", async () => {
    const both = await get(undefined, undefined);
    expectError(both, 400, "invalid_field");
    expect(errorFields(both).sort()).toEqual(["from", "to"]);
    expect(errorFields(await get("2030-01-01", undefined))).toEqual(["to"]);
    expect(errorFields(await get(undefined, "2030-01-01"))).toEqual(["from"]);
  });

  it("answers ranges up to 1096 days and refuses longer ones with max_lookback_exceeded", async () => {
    expect((await series("2030-01-01", "2033-01-01")).timeseries).toHaveLength(1096);
    const error = expectError(await get("2030-01-01", "2033-01-02"), 400, "max_lookback_exceeded");
    expect(error.detail).toContain("1096");
  });

  it("needs metrics.read", async () => {
    await expectPermission((key) => get("2030-01-01", "2030-01-02", key), {
      permission: "metrics.read",
      denied: [permissionsWithout("metrics."), []],
    });
  });

  it("has only GET", async () => {
    await expectMethodsNotAllowed(revenue, ["POST", "PUT", "PATCH", "DELETE"], "/metrics/revenue");
  });
});

describe("the daily revenue rollup", () => {
  it("counts a transaction completed by UPDATE once, with its earnings, on completed_at's UTC day", async () => {
    const txn = await makeReady();
    const earnings = await completeTransaction(txn.id, "2034-06-01T23:30:00-02:00"); // 2034-06-02 in UTC
    expect(Number(earnings)).toBeGreaterThan(0);
    let data = await series("2034-06-01", "2034-06-03");
    expect(data.timeseries.map((p) => [p.amount, p.count])).toEqual([
      ["0", 0],
      [earnings, 1],
    ]);

    // Later writes of the completed row (the status again, other fields) never count it again.
    await setStatus(txn.id, "completed");
    await pool().query("UPDATE transactions SET custom_data = '{\"a\":1}', updated_at = now() WHERE id = $1", [txn.id]);
    data = await series("2034-06-01", "2034-06-03");
    expect(data.timeseries[1]).toMatchObject({ amount: earnings, count: 1 });
  });

  it("never counts other statuses", async () => {
    const txn = await makeReady();
    for (const status of ["billed", "paid", "past_due", "canceled"]) await setStatus(txn.id, status);
    for (const status of ["draft", "ready", "billed", "paid", "past_due", "canceled"]) {
      await insertCompletedTransaction({
        currency: "USD",
        earnings: "999",
        completedAt: "2035-03-03T10:00:00Z",
        status,
      });
    }
    const data = await series("2035-03-03", "2035-03-04");
    expect(data.timeseries).toEqual([{ timestamp: "2035-03-03T00:00:00.000000Z", amount: "0", count: 0 }]);
    const { rows } = await pool().query("SELECT count(*)::int AS n FROM revenue_daily WHERE day = '2035-03-03'");
    expect(rows[0].n).toBe(0);
  });

  it("counts a row inserted completed, on today when completed_at is missing", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const before = await series(today, nextDay(today));
    await insertCompletedTransaction({ currency: "USD", earnings: "321", completedAt: null });
    const after = await series(today, nextDay(today));
    expect(after.timeseries[0]!.count).toBe(before.timeseries[0]!.count + 1);
    expect(BigInt(after.timeseries[0]!.amount) - BigInt(before.timeseries[0]!.amount)).toBe(321n);
    expect(after.updated_at >= before.updated_at).toBe(true);
  });

  it("counts every one of many transactions completed at the same time on the same day", async () => {
    await Promise.all(
      Array.from({ length: 20 }, () =>
        insertCompletedTransaction({ currency: "EUR", earnings: "100", completedAt: "2036-07-07T08:00:00Z" }),
      ),
    );
    const rows = (await rollupRows()).filter((row) => row.day === "2036-07-07");
    expect(rows).toEqual([{ day: "2036-07-07", currency_code: "EUR", amount: "2000", count: 20 }]);
  });

  it("is rebuilt from the transactions to the same rows (the migration's backfill)", async () => {
    const before = await rollupRows();
    expect(before.length).toBeGreaterThan(0);
    await pool().query("SELECT revenue_daily_rebuild()");
    expect(await rollupRows()).toEqual(before);
  });
});

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
