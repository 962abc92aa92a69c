/**
 * GET /metrics/monthly-recurring-revenue, /monthly-recurring-revenue-change,
 * /monthly-recurring-revenue-movements, /active-subscribers, /refunds, /chargebacks and
 * /checkout-conversion: the family's parameters, limits and shapes for every one of them, and the
 * refund, chargeback and checkout rollups. The subscription rollup's lifecycle is in
 * subscription-metrics.test.ts. Tests compare the series before and after what they do, so the
 * other tests of this file (one database) never disturb them.
 */
import { describe, expect, it } from "vitest";
import * as adjustments from "@/app/api/adjustments/route";
import { convert } from "@/lib/billing/exchange-rates";
import { pool } from "@/lib/db/connection";
import { completeByPayment } from "@/lib/dev/test/adjustments";
import { type ApiResult, call, errorFields, expectError, expectFieldError } from "@/lib/dev/test/api";
import { expectMethodsNotAllowed, expectPermission, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { MANUAL_TERMS, makeBuyer, makePrice, makeReady, makeTransaction } from "@/lib/dev/test/transactions";
import { newId } from "@/lib/ids";
import { conversionRate } from "@/lib/services/metrics/checkouts";
import * as activeSubscribers from "./active-subscribers/route";
import * as chargebacks from "./chargebacks/route";
import * as checkoutConversion from "./checkout-conversion/route";
import * as mrr from "./monthly-recurring-revenue/route";
import * as mrrChange from "./monthly-recurring-revenue-change/route";
import * as mrrMovements from "./monthly-recurring-revenue-movements/route";
import * as refunds from "./refunds/route";

type Entity = Record<string, any>;

const METRICS = {
  "monthly-recurring-revenue": { handlers: mrr, point: ["timestamp", "amount"], currency: true },
  "monthly-recurring-revenue-change": { handlers: mrrChange, point: ["timestamp", "amount"], currency: true },
  "monthly-recurring-revenue-movements": {
    handlers: mrrMovements,
    point: [
      "timestamp",
      "new",
      "expansion",
      "contraction",
      "churn",
      "reactivation",
      "new_subscribers",
      "reactivated_subscribers",
      "churned_subscribers",
    ],
    currency: true,
  },
  "active-subscribers": { handlers: activeSubscribers, point: ["timestamp", "count"], currency: false },
  refunds: { handlers: refunds, point: ["timestamp", "amount"], currency: true },
  chargebacks: { handlers: chargebacks, point: ["timestamp", "count"], currency: false },
  "checkout-conversion": {
    handlers: checkoutConversion,
    point: ["timestamp", "count", "completed_count", "rate"],
    currency: false,
  },
} as const;
type Metric = keyof typeof METRICS;
const NAMES = Object.keys(METRICS) as Metric[];

async function get(metric: Metric, from: string | undefined, to: string | undefined, key?: string) {
  const params = new URLSearchParams();
  if (from !== undefined) params.set("from", from);
  if (to !== undefined) params.set("to", to);
  return call(METRICS[metric].handlers.GET, "GET", `/metrics/${metric}?${params}`, { key: key ?? (await admin()) });
}

async function series(metric: Metric, from: string, to: string): Promise<Entity> {
  const res: ApiResult = await get(metric, from, to);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const today = () => new Date().toISOString().slice(0, 10);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe("every metric", () => {
  it("answers the family's shape: one point per day at 00:00 UTC, starts_at, ends_at, interval, updated_at", async () => {
    for (const metric of NAMES) {
      const data = await series(metric, "2030-01-30", "2030-02-02");
      const keys = ["timeseries", "starts_at", "ends_at", "interval", "updated_at"];
      expect(Object.keys(data).sort(), metric).toEqual(
        [
          ...keys,
          ...(METRICS[metric].currency ? ["currency_code"] : []),
          ...(metric === "monthly-recurring-revenue-movements" ? ["active_subscribers_at_start"] : []),
        ].sort(),
      );
      if (METRICS[metric].currency) expect(data.currency_code).toBe("USD");
      expect(data.interval).toBe("day");
      expect(data.starts_at).toBe("2030-01-30T00:00:00.000000Z");
      expect(data.ends_at).toBe("2030-02-02T00:00:00.000000Z");
      expect(data.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      expect(data.timeseries.map((p: Entity) => p.timestamp)).toEqual([
        "2030-01-30T00:00:00.000000Z",
        "2030-01-31T00:00:00.000000Z",
        "2030-02-01T00:00:00.000000Z",
      ]);
      for (const point of data.timeseries)
        expect(Object.keys(point).sort(), metric).toEqual([...METRICS[metric].point].sort());
    }
  });

  it("returns an empty timeseries when from equals to", async () => {
    for (const metric of NAMES) {
      const data = await series(metric, "2031-03-31", "2031-03-31");
      expect(data.timeseries, metric).toEqual([]);
      expect(data.starts_at).toBe("2031-03-31T00:00:00.000000Z");
    }
  });

  it("refuses from after to, naming from", async () => {
    for (const metric of NAMES) {
      const error = expectFieldError(await get(metric, "2030-01-02", "2030-01-01"), "from");
      expect(error.errors?.[0]?.message).toContain("on or before");
    }
  });

  it("refuses dates that are not RFC 3339 full-dates, and hostile ones, naming the field", async () => {
    const bad = [
      "2030-02-30",
      "2030-1-01",
      "2030-01-01T00:00:00Z",
      "yesterday",
      "0000-01-01",
      "",
      "'; DROP TABLE x;--",
    ];
    for (const metric of NAMES) {
      for (const value of [...bad, "\u0000", "9".repeat(5000), "2030-01-01\n"]) {
        expectFieldError(await get(metric, value, "2030-12-01"), "from");
        expectFieldError(await get(metric, "2030-01-01", value), "to");
      }
    }
  });

  it("requires from and to", async () => {
    for (const metric of NAMES) {
      const both = await get(metric, undefined, undefined);
      expectError(both, 400, "invalid_field");
      expect(errorFields(both).sort()).toEqual(["from", "to"]);
    }
  });

  it("answers ranges up to 1096 days and refuses longer ones with max_lookback_exceeded", async () => {
    for (const metric of NAMES) {
      expect((await series(metric, "2030-01-01", "2033-01-01")).timeseries, metric).toHaveLength(1096);
      const error = expectError(await get(metric, "2030-01-01", "2033-01-02"), 400, "max_lookback_exceeded");
      expect(error.detail).toContain("1096");
    }
  });

  it("needs metrics.read", async () => {
    for (const metric of NAMES) {
      await expectPermission((key) => get(metric, "2030-01-01", "2030-01-02", key), {
        permission: "metrics.read",
        denied: [permissionsWithout("metrics."), []],
      });
    }
  });

  it("has only GET", async () => {
    for (const metric of NAMES) {
      await expectMethodsNotAllowed(METRICS[metric].handlers, ["POST", "PUT", "PATCH", "DELETE"], `/metrics/${metric}`);
    }
  });
});

/** A completed USD transaction of `amount` (tax-exclusive price, US buyer) paid at checkout. */
async function paid(amount = "10000"): Promise<Entity> {
  const price = await makePrice({ unit_price: { amount, currency_code: "USD" } });
  const txn = await makeReady({ items: [{ price_id: price.id, quantity: 1 }] });
  await completeByPayment(txn.id);
  return txn;
}

async function refund(transactionId: string, body: Entity = {}): Promise<Entity> {
  const res = await call(adjustments.POST, "POST", "/adjustments", {
    key: await admin(),
    body: { action: "refund", transaction_id: transactionId, reason: "metrics test", type: "full", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const amountOf = (data: Entity, index = 0) => BigInt(data.timeseries[index].amount);

describe("GET /metrics/refunds", () => {
  it("adds an approved refund's total on the day it was approved; credits never count", async () => {
    const day = today();
    const before = await series("refunds", day, nextDay(day));
    const txn = await paid("10000");
    const adjustment = await refund(txn.id);
    expect(adjustment.status).toBe("approved");
    const after = await series("refunds", day, nextDay(day));
    expect(amountOf(after) - amountOf(before)).toBe(BigInt(adjustment.totals.total));
    expect(after.updated_at >= before.updated_at).toBe(true);

    // A credit of a manual invoice is not a refund.
    const { customer, address } = await makeBuyer();
    const price = await makePrice({ unit_price: { amount: "5000", currency_code: "USD" } });
    const invoice = await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      collection_mode: "manual",
      billing_details: MANUAL_TERMS,
    });
    await pool().query("UPDATE transactions SET status = 'billed' WHERE id = $1", [invoice.id]);
    const credit = await call(adjustments.POST, "POST", "/adjustments", {
      key: await admin(),
      body: { action: "credit", transaction_id: invoice.id, reason: "goodwill", type: "full" },
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(201);
    expect(amountOf(await series("refunds", day, nextDay(day)))).toBe(amountOf(after));
  });

  it("converts other currencies to the primary currency at the current rate", async () => {
    await insertAdjustment({ action: "refund", currency: "EUR", total: 8600n, at: "2034-02-02T10:00:00Z" });
    await insertAdjustment({ action: "refund", currency: "USD", total: 500n, at: "2034-02-02T23:59:59Z" });
    await insertAdjustment({
      action: "refund",
      currency: "USD",
      total: 7n,
      at: "2034-02-03T00:00:00Z",
      status: "rejected",
    });
    await insertAdjustment({ action: "chargeback", currency: "USD", total: 900n, at: "2034-02-02T10:00:00Z" });
    const data = await series("refunds", "2034-02-02", "2034-02-04");
    expect(data.timeseries).toEqual([
      { timestamp: "2034-02-02T00:00:00.000000Z", amount: String(convert(8600n, "EUR", "USD") + 500n) },
      { timestamp: "2034-02-03T00:00:00.000000Z", amount: "0" },
    ]);
    expect(data.timeseries[0].amount).toBe("10500"); // €86.00 = $100.00 at 0.86
  });
});

/** An adjustment row written whole (as a payment provider's chargeback would be), at `at`. */
async function insertAdjustment(options: {
  action: string;
  currency: string;
  total: bigint;
  at: string;
  status?: string;
}): Promise<string> {
  const txn = await paid("1000");
  const id = newId("adj");
  await pool().query(
    `INSERT INTO adjustments (id, action, type, transaction_id, customer_id, reason, currency_code, status,
       subtotal, tax, total, fee, earnings, has_payout, tax_rates_used, created_at, updated_at)
     SELECT $1, $2, 'full', t.id, t.customer_id, 'test', $3, $4, $5, 0, $5, 0, $5, true, '[]'::json, $6, $6
       FROM transactions t WHERE t.id = $7`,
    [id, options.action, options.currency, options.status ?? "approved", options.total.toString(), options.at, txn.id],
  );
  return id;
}

describe("GET /metrics/chargebacks", () => {
  it("counts chargebacks received per day, never warnings, reversals, refunds or rejected ones", async () => {
    await insertAdjustment({ action: "chargeback", currency: "USD", total: 1000n, at: "2035-05-05T01:00:00Z" });
    await insertAdjustment({ action: "chargeback", currency: "EUR", total: 1000n, at: "2035-05-05T23:00:00Z" });
    await insertAdjustment({ action: "chargeback_warning", currency: "USD", total: 1000n, at: "2035-05-05T02:00:00Z" });
    await insertAdjustment({ action: "chargeback_reverse", currency: "USD", total: 1000n, at: "2035-05-05T03:00:00Z" });
    await insertAdjustment({ action: "refund", currency: "USD", total: 1000n, at: "2035-05-05T03:00:00Z" });
    await insertAdjustment({
      action: "chargeback",
      currency: "USD",
      total: 1000n,
      at: "2035-05-06T03:00:00Z",
      status: "rejected",
    });
    const data = await series("chargebacks", "2035-05-04", "2035-05-07");
    expect(data.timeseries.map((p: Entity) => p.count)).toEqual([0, 2, 0]);
  });

  it("takes an approved one out of its day when it leaves approved", async () => {
    const id = await insertAdjustment({
      action: "chargeback",
      currency: "USD",
      total: 1000n,
      at: "2035-07-07T01:00:00Z",
    });
    expect((await series("chargebacks", "2035-07-07", "2035-07-08")).timeseries[0].count).toBe(1);
    await pool().query("UPDATE adjustments SET status = 'reversed', updated_at = now() WHERE id = $1", [id]);
    expect((await series("chargebacks", "2035-07-07", "2035-07-08")).timeseries[0].count).toBe(0);
  });
});

describe("GET /metrics/checkout-conversion", () => {
  it("counts a checkout on the day it opened, and again as completed once paid", async () => {
    const day = today();
    const point = async () => (await series("checkout-conversion", day, nextDay(day))).timeseries[0];
    const before = await point();
    const opened = await makeReady();
    const second = await makeReady();
    const afterOpen = await point();
    expect(afterOpen.count - before.count).toBe(2);
    expect(afterOpen.completed_count).toBe(before.completed_count);
    await completeByPayment(opened.id);
    const afterPay = await point();
    expect(afterPay.count - before.count).toBe(2);
    expect(afterPay.completed_count - before.completed_count).toBe(1);
    expect(afterPay.rate).toBe(conversionRate(afterPay.completed_count, afterPay.count));
    expect(second.id).toMatch(/^txn_/);

    // Invoices (manual collection) are not checkouts.
    const { customer, address } = await makeBuyer();
    const price = await makePrice();
    await makeTransaction({
      items: [{ price_id: price.id, quantity: 1 }],
      customer_id: customer.id,
      address_id: address.id,
      collection_mode: "manual",
      billing_details: MANUAL_TERMS,
    });
    expect((await point()).count).toBe(afterPay.count);
  });

  it("writes the rate with six decimals, rounded half up", () => {
    expect(conversionRate(0, 0)).toBe("0.000000");
    expect(conversionRate(5, 151)).toBe("0.033113");
    expect(conversionRate(1, 3)).toBe("0.333333");
    expect(conversionRate(2, 3)).toBe("0.666667");
    expect(conversionRate(3, 3)).toBe("1.000000");
  });
});

describe("the refund, chargeback and checkout rollups", () => {
  it("are rebuilt from their rows to the same rows", async () => {
    const rows = async () => ({
      adjustments: (
        await pool().query(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, currency_code, action, amount::text, count
             FROM adjustment_metrics_daily WHERE count <> 0 ORDER BY 1, 2, 3`,
        )
      ).rows,
      checkouts: (
        await pool().query(
          `SELECT to_char(day, 'YYYY-MM-DD') AS day, count, completed_count FROM checkout_metrics_daily
            WHERE count <> 0 ORDER BY 1`,
        )
      ).rows,
    });
    const before = await rows();
    expect(before.adjustments.length).toBeGreaterThan(0);
    expect(before.checkouts.length).toBeGreaterThan(0);
    await pool().query("SELECT adjustment_metrics_rebuild()");
    await pool().query("SELECT checkout_metrics_rebuild()");
    expect(await rows()).toEqual(before);
  });
});
