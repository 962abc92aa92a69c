/** GET /subscriptions/{id}/test-clock: where the sandbox test clock stands, read by the dashboard. */
import { afterEach, describe, expect, it } from "vitest";
import * as advance from "@/app/api/subscriptions/[subscription_id]/test-clock/advance/route";
import * as clock from "@/app/api/subscriptions/[subscription_id]/test-clock/route";
import { call, expectError, testKey } from "@/lib/dev/test/api";
import { admin } from "@/lib/dev/test/resource";
import { subscribeAtCheckout } from "@/lib/dev/test/subscriptions";

const DAY = 86_400_000;

async function readClock(id: string, key?: string) {
  return call(clock.GET, "GET", `/subscriptions/${id}/test-clock`, {
    key: key ?? (await admin()),
    params: { subscription_id: id },
  });
}

afterEach(() => {
  delete process.env.BILLING_ENVIRONMENT;
});

describe("GET /subscriptions/{id}/test-clock", () => {
  it("answers the real time until the clock is moved, then the time it was moved to", async () => {
    const { subscription } = await subscribeAtCheckout();
    const before = Date.now();
    const fresh = await readClock(subscription.id);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.data.subscription_id).toBe(subscription.id);
    expect(Date.parse(fresh.body.data.now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(fresh.body.data.now)).toBeLessThanOrEqual(Date.now());

    const to = new Date(Date.now() + 3 * DAY).toISOString();
    const moved = await call(advance.POST, "POST", `/subscriptions/${subscription.id}/test-clock/advance`, {
      key: await admin(),
      params: { subscription_id: subscription.id },
      body: { to },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await readClock(subscription.id)).body.data.now).toBe(to);
  });

  it("needs subscription.read, knows only existing subscriptions, and only in the sandbox", async () => {
    const { subscription } = await subscribeAtCheckout();
    expect((await readClock(subscription.id, await testKey(["subscription.read"]))).status).toBe(200);
    expectError(await readClock(subscription.id, await testKey(["transaction.read"])), 403, "forbidden");
    expectError(await readClock("sub_01hzzzzzzzzzzzzzzzzzzzzzzz"), 404, "not_found");
    process.env.BILLING_ENVIRONMENT = "live";
    expectError(await readClock(subscription.id, await testKey()), 400, "sandbox_only");
  });
});
