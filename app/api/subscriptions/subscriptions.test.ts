import { describe, expect, it } from "vitest";
import * as creditBalances from "@/app/api/customers/[customer_id]/credit-balances/route";
import * as paymentMethodItem from "@/app/api/customers/[customer_id]/payment-methods/[payment_method_id]/route";
import * as paymentMethodCollection from "@/app/api/customers/[customer_id]/payment-methods/route";
import * as subscriptionItem from "@/app/api/subscriptions/[subscription_id]/route";
import * as subscriptionCollection from "@/app/api/subscriptions/route";
import { query } from "@/lib/db/sql";
import { call, expectError, expectFieldError, expectNotFound, testKey } from "@/lib/dev/test/api";
import { events, permissionsWithout } from "@/lib/dev/test/checks";
import { admin } from "@/lib/dev/test/resource";
import { makeRecurringPrice, subscribeAtCheckout, subscribeByInvoice } from "@/lib/dev/test/subscriptions";
import { makeBusiness, makeBuyer, makePrice, makeTransaction } from "@/lib/dev/test/transactions";
import { subscriptionSchema } from "@/lib/schemas/subscription";

const list = async (query = "", key?: string) =>
  call(subscriptionCollection.GET, "GET", `/subscriptions${query}`, { key: key ?? (await admin()) });

describe("a subscription bought at checkout", () => {
  it("is created active with the transaction's recurring items, the card saved, events in the family's order", async () => {
    const { subscription, transaction, customer, address } = await subscribeAtCheckout({ quantity: 2 });
    expect(subscriptionSchema.strict().parse(subscription)).toBeTruthy();
    expect(subscription).toMatchObject({
      status: "active",
      customer_id: customer.id,
      address_id: address.id,
      business_id: null,
      currency_code: "USD",
      collection_mode: "automatic",
      billing_cycle: { interval: "month", frequency: 1 },
      scheduled_change: null,
      discount: null,
      paused_at: null,
      canceled_at: null,
    });
    expect(subscription.items).toHaveLength(1);
    expect(subscription.items[0]).toMatchObject({ status: "active", quantity: 2, recurring: true });
    expect(subscription.first_billed_at).toBe(subscription.started_at);
    expect(subscription.current_billing_period.starts_at).toBe(subscription.started_at);
    expect(subscription.next_billed_at).toBe(subscription.current_billing_period.ends_at);
    expect(subscription.management_urls.cancel).toContain(subscription.id);
    expect(transaction.billing_period).toEqual(subscription.current_billing_period);
    expect(transaction.status).toBe("completed");

    const types = (await events(transaction.id)).map((e) => e.eventType);
    expect(types.slice(-4)).toEqual([
      "transaction.updated",
      "transaction.paid",
      "transaction.updated",
      "transaction.completed",
    ]);
    const subEvents = await events(subscription.id);
    expect(subEvents.map((e) => e.eventType)).toEqual(["subscription.created", "subscription.activated"]);
    const created = subEvents[0]!.data as Record<string, unknown>;
    expect(created.transaction_id).toBe(transaction.id);
    expect(created.management_urls).toBeUndefined();

    const methods = await call(paymentMethodCollection.GET, "GET", `/customers/${customer.id}/payment-methods`, {
      key: await admin(),
      params: { customer_id: customer.id },
    });
    expect(methods.status).toBe(200);
    expect(methods.body.data).toHaveLength(1);
    expect(methods.body.data[0]).toMatchObject({
      customer_id: customer.id,
      address_id: address.id,
      type: "card",
      origin: "subscription",
      card: { last4: "4242", type: "visa" },
    });
    // The saved card, in the family's payment_method_id and in its deprecated stored_payment_method_id;
    // the transaction's events carry the same.
    expect(transaction.payments[0]).toMatchObject({
      payment_method_id: methods.body.data[0].id,
      stored_payment_method_id: methods.body.data[0].id,
    });
    const completed = (await events(transaction.id)).find((e) => e.eventType === "transaction.completed");
    expect(completed).toBeDefined();
    expect((completed!.data as { payments: unknown[] }).payments[0]).toMatchObject({
      payment_method_id: methods.body.data[0].id,
      method_details: { type: "card", underlying_details: null },
    });
  });

  it("starts trialing when the price has a trial period", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const { subscription, transaction } = await subscribeAtCheckout({ price });
    expect(subscription.status).toBe("trialing");
    expect(subscription.first_billed_at).toBeNull();
    expect(subscription.items[0].status).toBe("trialing");
    expect(subscription.items[0].trial_dates).toEqual(subscription.current_billing_period);
    const days = (Date.parse(subscription.next_billed_at) - Date.parse(subscription.started_at)) / 86_400_000;
    expect(days).toBe(14);
    expect(transaction.details.totals.grand_total).toBe("0");
    expect((await events(subscription.id)).map((e) => e.eventType)).toEqual([
      "subscription.created",
      "subscription.trialing",
    ]);
  });

  it("takes only the recurring items; one-time items are billed once", async () => {
    const { customer, address } = await makeBuyer();
    const monthly = await makeRecurringPrice();
    const setup = await makePrice();
    const txn = await makeTransaction({
      items: [
        { price_id: setup.id, quantity: 1 },
        { price_id: monthly.id, quantity: 3 },
      ],
      customer_id: customer.id,
      address_id: address.id,
    });
    const { payAtCheckout } = await import("@/lib/services/payments/checkout");
    const { TEST_CARD } = await import("@/lib/dev/test/adjustments");
    await payAtCheckout(txn.id, TEST_CARD);
    const res = await list(`?customer_id=${customer.id}`);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].items.map((i: { price: { id: string } }) => i.price.id)).toEqual([monthly.id]);
  });

  it("refuses a transaction whose recurring items have different billing cycles", async () => {
    const { customer, address } = await makeBuyer();
    const monthly = await makeRecurringPrice();
    const yearly = await makeRecurringPrice({ billing_cycle: { interval: "year", frequency: 1 } });
    const res = await call((await import("@/app/api/transactions/route")).POST, "POST", "/transactions", {
      key: await admin(),
      body: {
        items: [
          { price_id: monthly.id, quantity: 1 },
          { price_id: yearly.id, quantity: 1 },
        ],
        customer_id: customer.id,
        address_id: address.id,
      },
    });
    expectFieldError(res, "items[1].price_id");
  });
});

describe("a subscription from an issued manual invoice", () => {
  it("is manually collected, with subscription_id on the invoice", async () => {
    const { subscription, transaction } = await subscribeByInvoice();
    expect(subscription).toMatchObject({ status: "active", collection_mode: "manual" });
    expect(subscription.billing_details.payment_terms).toEqual({ interval: "day", frequency: 30 });
    expect(subscription.management_urls.update_payment_method).toBeNull();
    expect(transaction.billing_period).toEqual(subscription.current_billing_period);
    const types = (await events(transaction.id)).map((e) => e.eventType);
    expect(types.slice(-3)).toEqual(["transaction.updated", "transaction.billed", "transaction.updated"]);
  });
});

describe("GET /subscriptions", () => {
  it("lists newest first with the reference's filters", async () => {
    const a = await subscribeAtCheckout();
    const b = await subscribeByInvoice();
    const all = await list();
    expect(all.status).toBe(200);
    const ids = all.body.data.map((s: { id: string }) => s.id);
    expect(ids.indexOf(b.subscription.id)).toBeLessThan(ids.indexOf(a.subscription.id));
    expect((await list("?collection_mode=manual")).body.data.map((s: { id: string }) => s.id)).toContain(
      b.subscription.id,
    );
    expect((await list(`?customer_id=${a.customer.id}`)).body.data).toHaveLength(1);
    expect((await list(`?price_id=${a.subscription.items[0].price.id}`)).body.data).toHaveLength(1);
    expect((await list(`?id=${a.subscription.id},${b.subscription.id}`)).body.data).toHaveLength(2);
    expect((await list("?status=paused")).body.data).toHaveLength(0);
    expect((await list("?scheduled_change_action=cancel")).body.data).toHaveLength(0);
  });

  it("include=customer,business (ours) adds them to each subscription, left out when there is none", async () => {
    const a = await subscribeAtCheckout();
    const b = await subscribeAtCheckout();
    const business = await makeBusiness(b.customer.id, { name: "Becker Design" });
    await query("UPDATE subscriptions SET business_id = $2 WHERE id = $1", [b.subscription.id, business.id]);
    const res = await list(`?id=${a.subscription.id},${b.subscription.id}&include=customer,business`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [withBusiness, without] = res.body.data;
    expect(withBusiness.id).toBe(b.subscription.id);
    expect(subscriptionSchema.strict().parse(withBusiness)).toBeTruthy();
    expect(withBusiness.customer).toMatchObject({ id: b.customer.id, email: b.customer.email });
    expect(withBusiness.business).toMatchObject({ id: business.id, name: "Becker Design" });
    expect(without.customer).toMatchObject({ id: a.customer.id });
    expect("business" in without).toBe(false);
    expect("customer" in (await list(`?id=${a.subscription.id}`)).body.data[0]).toBe(false);
    expect((await list(`?id=${a.subscription.id}&include=customer`)).body.data[0]).not.toHaveProperty("business");
    expectFieldError(await list("?include=address"), "include[0]");
  });

  it("refuses bad filters with field errors", async () => {
    expectFieldError(await list("?status=sleeping"), "status[0]");
    expectFieldError(await list("?customer_id=nope"), "customer_id[0]");
    expectFieldError(await list("?order_by=status[ASC]"), "order_by");
    expectFieldError(await list("?collection_mode=auto"), "collection_mode");
    expectFieldError(await list("?scheduled_change_action=delete"), "scheduled_change_action[0]");
  });

  it("needs subscription.read", async () => {
    expectError(await list("", await testKey(permissionsWithout("subscription."))), 403, "forbidden");
  });
});

describe("GET /subscriptions/{id}", () => {
  it("answers 404 for an unknown or malformed ID and 403 without subscription.read", async () => {
    const key = await admin();
    const unknown = "sub_01hzzzzzzzzzzzzzzzzzzzzzzz";
    expectNotFound(
      await call(subscriptionItem.GET, "GET", `/subscriptions/${unknown}`, {
        key,
        params: { subscription_id: unknown },
      }),
    );
    expectNotFound(
      await call(subscriptionItem.GET, "GET", "/subscriptions/x", { key, params: { subscription_id: "x" } }),
    );
    const limited = await testKey(permissionsWithout("subscription."));
    expectError(
      await call(subscriptionItem.GET, "GET", `/subscriptions/${unknown}`, {
        key: limited,
        params: { subscription_id: unknown },
      }),
      403,
      "forbidden",
    );
  });

  it("refuses an unknown include", async () => {
    const { subscription } = await subscribeAtCheckout();
    const res = await call(subscriptionItem.GET, "GET", `/subscriptions/${subscription.id}?include=customer`, {
      key: await admin(),
      params: { subscription_id: subscription.id },
    });
    expectFieldError(res, "include[0]");
  });
});

describe("payment methods and credit balances", () => {
  it("reads and deletes a saved card (204), with payment_method.deleted", async () => {
    const { customer } = await subscribeAtCheckout();
    const key = await admin();
    const params = { customer_id: customer.id };
    const listed = await call(paymentMethodCollection.GET, "GET", `/customers/${customer.id}/payment-methods`, {
      key,
      params,
    });
    const id = listed.body.data[0].id;
    const one = await call(paymentMethodItem.GET, "GET", `/customers/${customer.id}/payment-methods/${id}`, {
      key,
      params: { ...params, payment_method_id: id },
    });
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(id);
    const deleted = await call(paymentMethodItem.DELETE, "DELETE", `/customers/${customer.id}/payment-methods/${id}`, {
      key,
      params: { ...params, payment_method_id: id },
    });
    expect(deleted.status).toBe(204);
    expect((await events(id)).map((e) => e.eventType)).toEqual(["payment_method.saved", "payment_method.deleted"]);
    expectNotFound(
      await call(paymentMethodItem.GET, "GET", `/customers/${customer.id}/payment-methods/${id}`, {
        key,
        params: { ...params, payment_method_id: id },
      }),
    );
    const readOnly = await testKey(["payment_method.read"]);
    expectError(
      await call(paymentMethodItem.DELETE, "DELETE", `/customers/${customer.id}/payment-methods/${id}`, {
        key: readOnly,
        params: { ...params, payment_method_id: id },
      }),
      403,
      "forbidden",
    );
  });

  it("lists no credit balance for a new customer, 404 for an unknown one", async () => {
    const { customer } = await makeBuyer();
    const key = await admin();
    const res = await call(creditBalances.GET, "GET", `/customers/${customer.id}/credit-balances`, {
      key,
      params: { customer_id: customer.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    const unknown = "ctm_01hzzzzzzzzzzzzzzzzzzzzzzz";
    expectNotFound(
      await call(creditBalances.GET, "GET", `/customers/${unknown}/credit-balances`, {
        key,
        params: { customer_id: unknown },
      }),
    );
    expectFieldError(
      await call(creditBalances.GET, "GET", `/customers/${customer.id}/credit-balances?currency_code=XXX`, {
        key,
        params: { customer_id: customer.id },
      }),
      "currency_code",
    );
  });
});
