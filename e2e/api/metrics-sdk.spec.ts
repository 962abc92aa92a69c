/**
 * The Node SDK of the API family reads every metric (`paddle.metrics.*`) from our server: each
 * operation parses our answer into its entity with every field, and the subscription, refund and
 * checkout metrics move with what the API does (a subscription bought at checkout, refunded).
 */
import { expect, test } from "@playwright/test";
import { cliApiKey } from "../cli";
import { baseURL } from "../playwright.config";
import { sdk, subscribeAtCheckout } from "./sdk-helpers";

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** The same request over plain HTTP: what the SDK parsed. */
async function raw(key: string, path: string, from: string, to: string) {
  const response = await fetch(`${baseURL}/api/metrics/${path}?from=${from}&to=${to}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()).data;
}

const camel = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(camel)
    : value && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camel(v)]),
        )
      : value;

test("the Node SDK reads every metric, as our API answers it", async () => {
  const key = cliApiKey();
  const paddle = sdk(key);
  const from = "2030-01-30";
  const to = "2030-02-02";
  const operations = [
    ["monthly-recurring-revenue", () => paddle.metrics.getMonthlyRecurringRevenue({ from, to })],
    ["monthly-recurring-revenue-change", () => paddle.metrics.getMonthlyRecurringRevenueChange({ from, to })],
    ["active-subscribers", () => paddle.metrics.getActiveSubscribers({ from, to })],
    ["revenue", () => paddle.metrics.getRevenue({ from, to })],
    ["refunds", () => paddle.metrics.getRefunds({ from, to })],
    ["chargebacks", () => paddle.metrics.getChargebacks({ from, to })],
    ["checkout-conversion", () => paddle.metrics.getCheckoutConversion({ from, to })],
  ] as const;
  for (const [path, call] of operations) {
    const entity = await call();
    // updated_at is the rollup's last change, or the request's time when nothing was ever counted.
    const { updatedAt, ...parsed } = JSON.parse(JSON.stringify(entity));
    const { updatedAt: _, ...answered } = camel(await raw(key, path, from, to)) as Record<string, unknown>;
    expect(parsed, path).toEqual(answered);
    expect(updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(entity.interval).toBe("day");
    expect(entity.startsAt).toBe("2030-01-30T00:00:00.000000Z");
    expect(entity.timeseries.map((p) => p.timestamp)).toEqual([
      "2030-01-30T00:00:00.000000Z",
      "2030-01-31T00:00:00.000000Z",
      "2030-02-01T00:00:00.000000Z",
    ]);
  }
  const conversion = await paddle.metrics.getCheckoutConversion({ from, to });
  expect(conversion.timeseries[0]).toEqual({
    timestamp: "2030-01-30T00:00:00.000000Z",
    count: 0,
    completedCount: 0,
    rate: "0.000000",
  });
});

test("the SDK sees a subscription bought at checkout, and its checkout, in today's metrics", async () => {
  const paddle = sdk();
  const range = { from: today(), to: tomorrow() };
  const mrrBefore = BigInt((await paddle.metrics.getMonthlyRecurringRevenue(range)).timeseries[0]!.amount);
  const activeBefore = (await paddle.metrics.getActiveSubscribers(range)).timeseries[0]!.count;
  const checkoutsBefore = (await paddle.metrics.getCheckoutConversion(range)).timeseries[0];

  const { subscriptionId } = await subscribeAtCheckout(paddle, { quantity: 2 });

  const mrr = await paddle.metrics.getMonthlyRecurringRevenue(range);
  expect(mrr.currencyCode).toBe("USD");
  expect(BigInt(mrr.timeseries[0]!.amount) - mrrBefore).toBe(6000n);
  expect((await paddle.metrics.getActiveSubscribers(range)).timeseries[0]!.count - activeBefore).toBe(1);
  const change = await paddle.metrics.getMonthlyRecurringRevenueChange(range);
  expect(BigInt(change.timeseries[0]!.amount)).toBeGreaterThanOrEqual(6000n);
  const checkouts = (await paddle.metrics.getCheckoutConversion(range)).timeseries[0];
  expect(checkouts!.count - checkoutsBefore!.count).toBe(1);
  expect(checkouts!.completedCount - checkoutsBefore!.completedCount).toBe(1);

  // Canceled now: churned today.
  await paddle.subscriptions.cancel(subscriptionId, { effectiveFrom: "immediately" });
  expect(BigInt((await paddle.metrics.getMonthlyRecurringRevenue(range)).timeseries[0]!.amount)).toBe(mrrBefore);
  expect((await paddle.metrics.getActiveSubscribers(range)).timeseries[0]!.count).toBe(activeBefore);
});

test("the SDK reports the API's errors for a bad range and a key without metrics.read", async () => {
  const paddle = sdk();
  await expect(paddle.metrics.getRefunds({ from: "2030-02-01", to: "2030-01-01" })).rejects.toMatchObject({
    code: "invalid_field",
  });
  await expect(paddle.metrics.getChargebacks({ from: "2030-01-01", to: "2034-01-01" })).rejects.toMatchObject({
    code: "max_lookback_exceeded",
  });
  const limited = sdk(cliApiKey(["customer.read"]));
  await expect(limited.metrics.getActiveSubscribers({ from: "2030-01-01", to: "2030-01-02" })).rejects.toMatchObject({
    code: "forbidden",
  });
});
