/**
 * The portal's plan change (POST /portal/api/subscriptions/{id}/change-plan and its preview): only
 * between the prices the merchant lists in the account settings, for the token's customer only,
 * charged as previewed (the API's update preview and update), hostile input a 4xx.
 */
import { describe, expect, it } from "vitest";
import * as previewRoute from "@/app/portal/api/subscriptions/[subscription_id]/change-plan/preview/route";
import * as changeRoute from "@/app/portal/api/subscriptions/[subscription_id]/change-plan/route";
import { call, expectError, expectFieldError, expectNotFound, type Handler } from "@/lib/dev/test/api";
import { lastTransaction, setClock, transactionsOf } from "@/lib/dev/test/subscription-updates";
import { getSubscriptionJson, makeRecurringPrice, subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { makePrice } from "@/lib/dev/test/transactions";
import { updateAccountSettings } from "@/lib/services/account-settings";
import { PORTAL_COOKIE } from "@/lib/services/portal/access";
import { portalPlanChoices } from "@/lib/services/portal/plans";
import { issueToken } from "@/lib/services/portal/tokens";

const DAY = 86_400_000;
const cookieFor = async (customerId: string) => `${PORTAL_COOKIE}=${(await issueToken("portal", customerId)).token}`;

function send(handler: Handler, path: string, id: string, cookie: string | null, body: unknown) {
  return call(handler, "POST", `/portal/api/subscriptions/${id}/${path}`, {
    params: { subscription_id: id },
    headers: cookie ? { cookie } : {},
    body,
  });
}

/** A product with a monthly (30.00) and a yearly (300.00) price, both offered in the portal. */
async function plans() {
  const monthly = await makeRecurringPrice({ name: "Monthly" });
  const yearly = await makeRecurringPrice({
    product_id: monthly.product_id,
    name: "Yearly",
    unit_price: { amount: "30000", currency_code: "USD" },
    billing_cycle: { interval: "year", frequency: 1 },
  });
  await updateAccountSettings({ portal_plan_price_ids: [monthly.id, yearly.id] });
  return { monthly, yearly };
}

describe("portal plan change", () => {
  it("offers the listed plans; the preview is what the switch to yearly then charges", async () => {
    const { monthly, yearly } = await plans();
    const { subscription, customer } = await subscribeAtCheckout({ price: monthly });
    await setClock(subscription.id, new Date(Date.parse(subscription.started_at) + 10 * DAY));
    const choices = await portalPlanChoices(customer.id, subscription.id);
    expect(choices?.current).toEqual({ price_id: monthly.id, quantity: 1 });
    expect(choices?.options).toEqual([
      {
        price_id: yearly.id,
        product_name: expect.any(String),
        price_name: "Yearly",
        billing_cycle: { interval: "year", frequency: 1 },
        unit_amount: "30000",
        currency_code: "USD",
      },
    ]);
    const cookie = await cookieFor(customer.id);
    const preview = await send(previewRoute.POST, "change-plan/preview", subscription.id, cookie, {
      price_id: yearly.id,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const charged = BigInt(preview.body.data.charged_now.amount);
    // 300.00 for a year from now, less about 20 of 30-odd days of 30.00 unused.
    expect(charged).toBeGreaterThan(27_000n);
    expect(charged).toBeLessThan(30_000n);
    expect(await transactionsOf(subscription.id)).toHaveLength(1);

    const changed = await send(changeRoute.POST, "change-plan", subscription.id, cookie, { price_id: yearly.id });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const txn = await lastTransaction(subscription.id);
    expect(txn).toMatchObject({ status: "completed", origin: "subscription_update" });
    expect(txn.details.totals.grand_total).toBe(preview.body.data.charged_now.amount);
    const after = await getSubscriptionJson(subscription.id);
    expect(after.billing_cycle).toEqual({ interval: "year", frequency: 1 });
    expect(after.items[0].price.id).toBe(yearly.id);
    expect((await portalPlanChoices(customer.id, subscription.id))?.options.map((o) => o.price_id)).toEqual([
      monthly.id,
    ]);
  });

  it("offers nothing when the merchant lists no plans, or the subscription's price is not listed", async () => {
    const { monthly } = await plans();
    const { subscription, customer } = await subscribeAtCheckout({ price: monthly });
    const other = await subscribeAtCheckout();
    expect(await portalPlanChoices(other.customer.id, other.subscription.id)).toBeNull();
    await updateAccountSettings({ portal_plan_price_ids: [] });
    expect(await portalPlanChoices(customer.id, subscription.id)).toBeNull();
  });

  it("refuses prices not offered, another customer's subscription, no cookie and hostile bodies", async () => {
    const { monthly, yearly } = await plans();
    const { subscription, customer } = await subscribeAtCheckout({ price: monthly });
    const theirs = await subscribeAtCheckout({ price: monthly });
    const cookie = await cookieFor(customer.id);
    const notListed = await makeRecurringPrice({ billing_cycle: { interval: "year", frequency: 1 } });
    const oneTime = await makePrice();
    for (const handler of [previewRoute.POST, changeRoute.POST]) {
      const path = handler === previewRoute.POST ? "change-plan/preview" : "change-plan";
      expectFieldError(await send(handler, path, subscription.id, cookie, { price_id: notListed.id }), "price_id");
      expectFieldError(await send(handler, path, subscription.id, cookie, { price_id: oneTime.id }), "price_id");
      expectFieldError(await send(handler, path, subscription.id, cookie, { price_id: monthly.id }), "price_id");
      for (const body of [{}, { price_id: "pri_x" }, { price_id: 5 }, { price_id: yearly.id, quantity: 2 }, null]) {
        const res = await send(handler, path, subscription.id, cookie, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expectNotFound(await send(handler, path, theirs.subscription.id, cookie, { price_id: yearly.id }));
      expectError(await send(handler, path, subscription.id, null, { price_id: yearly.id }), 401, "invalid_token");
    }
    expect((await getSubscriptionJson(subscription.id)).items[0].price.id).toBe(monthly.id);
  });
});
