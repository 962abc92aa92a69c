/**
 * The response schemas are the single source of the wire (docs/architecture.md): every entity the API returns
 * is made here from real rows, read back through the routes (the same services and SQL), and
 * parsed STRICTLY with its zod schema: an unknown key fails, a missing key fails. When this test
 * fails after a change to an entity's SQL, the schema (and the spec) must follow, or the SQL is wrong.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as accountSettings from "@/app/api/account-settings/route";
import * as creditNote from "@/app/api/adjustments/[adjustment_id]/credit-note/route";
import * as adjustments from "@/app/api/adjustments/route";
import * as apiKeys from "@/app/api/api-keys/route";
import * as checkout from "@/app/api/checkout/[transaction_id]/route";
import * as clientTokens from "@/app/api/client-tokens/route";
import * as addresses from "@/app/api/customers/[customer_id]/addresses/route";
import * as authToken from "@/app/api/customers/[customer_id]/auth-token/route";
import * as businesses from "@/app/api/customers/[customer_id]/businesses/route";
import * as creditBalances from "@/app/api/customers/[customer_id]/credit-balances/route";
import * as paymentMethods from "@/app/api/customers/[customer_id]/payment-methods/route";
import * as portalSessions from "@/app/api/customers/[customer_id]/portal-sessions/route";
import * as customers from "@/app/api/customers/route";
import * as discountGroups from "@/app/api/discount-groups/route";
import * as discountItem from "@/app/api/discounts/[discount_id]/route";
import * as eventTypes from "@/app/api/event-types/route";
import * as events from "@/app/api/events/route";
import * as activeSubscribers from "@/app/api/metrics/active-subscribers/route";
import * as chargebacks from "@/app/api/metrics/chargebacks/route";
import * as checkoutConversion from "@/app/api/metrics/checkout-conversion/route";
import * as mrr from "@/app/api/metrics/monthly-recurring-revenue/route";
import * as mrrChange from "@/app/api/metrics/monthly-recurring-revenue-change/route";
import * as mrrMovements from "@/app/api/metrics/monthly-recurring-revenue-movements/route";
import * as refunds from "@/app/api/metrics/refunds/route";
import * as revenue from "@/app/api/metrics/revenue/route";
import * as notificationSettings from "@/app/api/notification-settings/route";
import * as notificationLogs from "@/app/api/notifications/[notification_id]/logs/route";
import * as notificationReplay from "@/app/api/notifications/[notification_id]/replay/route";
import * as notifications from "@/app/api/notifications/route";
import * as paymentLinks from "@/app/api/payment-links/route";
import * as priceItem from "@/app/api/prices/[price_id]/route";
import * as pricingPreview from "@/app/api/pricing-preview/route";
import * as productItem from "@/app/api/products/[product_id]/route";
import * as reportLink from "@/app/api/reports/[report_id]/download-url/route";
import * as reports from "@/app/api/reports/route";
import * as simulationTypes from "@/app/api/simulation-types/route";
import * as simulationEvents from "@/app/api/simulations/[simulation_id]/runs/[simulation_run_id]/events/route";
import * as simulationRun from "@/app/api/simulations/[simulation_id]/runs/[simulation_run_id]/route";
import * as simulationRuns from "@/app/api/simulations/[simulation_id]/runs/route";
import * as simulations from "@/app/api/simulations/route";
import * as chargePreview from "@/app/api/subscriptions/[subscription_id]/charge/preview/route";
import * as charge from "@/app/api/subscriptions/[subscription_id]/charge/route";
import * as subscriptionPreview from "@/app/api/subscriptions/[subscription_id]/preview/route";
import * as subscriptionItem from "@/app/api/subscriptions/[subscription_id]/route";
import * as taxRate from "@/app/api/tax-rates/[country_code]/route";
import * as taxRates from "@/app/api/tax-rates/route";
import * as invoice from "@/app/api/transactions/[transaction_id]/invoice/route";
import * as transactionItem from "@/app/api/transactions/[transaction_id]/route";
import * as transactionPreview from "@/app/api/transactions/preview/route";
import { TEST_CARD } from "@/lib/dev/test/adjustments";
import { call, type Handler } from "@/lib/dev/test/api";
import { insertDestination } from "@/lib/dev/test/notifications";
import { startReceiver } from "@/lib/dev/test/receiver";
import { admin } from "@/lib/dev/test/resource";
import { makeRecurringPrice, subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { makeBusiness, makeBuyer, makeDiscount, makePrice, makeProduct, makeReady } from "@/lib/dev/test/transactions";
import { accountSettingsSchema } from "@/lib/schemas/account-settings";
import { addressSchema } from "@/lib/schemas/address";
import { adjustmentSchema } from "@/lib/schemas/adjustment";
import { apiKeySchema } from "@/lib/schemas/api-key";
import { businessSchema } from "@/lib/schemas/business";
import { clientTokenSchema } from "@/lib/schemas/client-token";
import { customerSchema } from "@/lib/schemas/customer";
import { discountSchema } from "@/lib/schemas/discount";
import { discountGroupSchema } from "@/lib/schemas/discount-group";
import { documentUrlSchema } from "@/lib/schemas/document";
import { eventSchema, eventTypeSchema } from "@/lib/schemas/event";
import {
  amountMetricsSchema,
  checkoutConversionMetricsSchema,
  countMetricsSchema,
  mrrMovementsMetricsSchema,
  revenueMetricsSchema,
} from "@/lib/schemas/metrics";
import { notificationLogSchema, notificationReplaySchema, notificationSchema } from "@/lib/schemas/notification";
import { notificationSettingSchema } from "@/lib/schemas/notification-setting";
import { checkoutPaymentSchema, checkoutSchema } from "@/lib/schemas/payment";
import { paymentLinkSchema } from "@/lib/schemas/payment-link";
import { creditBalanceSchema, paymentMethodSchema } from "@/lib/schemas/payment-method";
import { customerAuthTokenSchema, portalSessionSchema } from "@/lib/schemas/portal";
import { priceSchema, priceWithProductSchema, productWithPricesSchema } from "@/lib/schemas/price";
import { productSchema } from "@/lib/schemas/product";
import { reportSchema, reportUrlSchema } from "@/lib/schemas/report";
import {
  simulationEventSchema,
  simulationRunSchema,
  simulationSchema,
  simulationTypeSchema,
} from "@/lib/schemas/simulation";
import { strictProblems } from "@/lib/schemas/strict";
import { subscriptionPreviewSchema, subscriptionSchema } from "@/lib/schemas/subscription";
import { taxRateSchema } from "@/lib/schemas/tax-rate";
import {
  pricingPreviewSchema,
  TRANSACTION_INCLUDES,
  transactionPreviewResultSchema,
  transactionResponseSchema,
  transactionSchema,
} from "@/lib/schemas/transaction";
import { deliverNotification } from "@/lib/services/notification-delivery";
import { payAtCheckout } from "@/lib/services/payments/checkout";
import { executeSimulationRun } from "@/lib/simulator/runner";

/** Passes when `value` matches `schema` strictly, naming every problem otherwise. */
function expectStrict(schema: z.ZodType, value: unknown, what: string): void {
  expect(strictProblems(schema, value).slice(0, 10), `${what}: ${JSON.stringify(value).slice(0, 2000)}`).toEqual([]);
}

/** `data` of a 2xx answer of `handler`. */
async function dataOf(
  handler: Handler,
  method: string,
  path: string,
  options: { params?: Record<string, string>; body?: unknown } = {},
): Promise<any> {
  const res = await call(handler, method, path, { key: await admin(), ...options });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.data;
}

/** Each item of a list answer, strictly; the list must not be empty (it would check nothing). */
function expectEachStrict(schema: z.ZodType, list: unknown[], what: string): void {
  expect(list.length, `${what}: an empty list checks nothing`).toBeGreaterThan(0);
  for (const item of list) expectStrict(schema, item, what);
}

/** An object schema with its optional keys (the `include` ones) made required: they must be there. */
function withIncludes(schema: z.ZodObject, keys: readonly string[]): z.ZodType {
  return schema.required(Object.fromEntries(keys.map((key) => [key, true])) as never);
}

describe("every entity the API returns matches its response schema strictly", () => {
  it("catalogue: product, price, discount, discount group, with their includes", async () => {
    const product = await makeProduct();
    expectStrict(productSchema, product, "product");
    const price = await makeRecurringPrice({ product_id: product.id, trial_period: { interval: "day", frequency: 7 } });
    expectStrict(priceSchema, price, "price");
    const group = await dataOf(discountGroups.POST, "POST", "/discount-groups", { body: { name: "Spring" } });
    expectStrict(discountGroupSchema, group, "discount group");
    const discount = await makeDiscount({ discount_group_id: group.id, restrict_to: [price.id] });
    expectStrict(discountSchema, discount, "discount");

    const withPrices = await dataOf(productItem.GET, "GET", `/products/${product.id}?include=prices`, {
      params: { product_id: product.id },
    });
    expectStrict(productWithPricesSchema, withPrices, "product?include=prices");
    const withProduct = await dataOf(priceItem.GET, "GET", `/prices/${price.id}?include=product`, {
      params: { price_id: price.id },
    });
    expectStrict(priceWithProductSchema, withProduct, "price?include=product");
    const withGroup = await dataOf(discountItem.GET, "GET", `/discounts/${discount.id}?include=discount_group`, {
      params: { discount_id: discount.id },
    });
    expectStrict(withIncludes(discountSchema, ["discount_group"]), withGroup, "discount?include=discount_group");
  });

  it("customers: customer, address, business, credit balance, payment method, portal session, auth token", async () => {
    const { customer, address } = await makeBuyer("DE");
    expectStrict(customerSchema, customer, "customer");
    expectStrict(addressSchema, address, "address");
    const business = await makeBusiness(customer.id, {
      tax_identifier: "DE123456789",
      contacts: [{ name: "Ada", email: "ada@example.com" }],
    });
    expectStrict(businessSchema, business, "business");
    const params = { customer_id: customer.id };
    expectEachStrict(
      addressSchema,
      await dataOf(addresses.GET, "GET", `/customers/${customer.id}/addresses`, { params }),
      "address list",
    );
    expectEachStrict(
      businessSchema,
      await dataOf(businesses.GET, "GET", `/customers/${customer.id}/businesses`, { params }),
      "business list",
    );
    expectStrict(
      portalSessionSchema,
      await dataOf(portalSessions.POST, "POST", `/customers/${customer.id}/portal-sessions`, { params }),
      "portal session",
    );
    expectStrict(
      customerAuthTokenSchema,
      await dataOf(authToken.POST, "POST", `/customers/${customer.id}/auth-token`, { params }),
      "customer auth token",
    );
    expectEachStrict(customerSchema, await dataOf(customers.GET, "GET", "/customers"), "customer list");
  });

  it("transactions: every include, checkout, payment, adjustment, credit balance, previews, invoice link", async () => {
    const { subscription, transaction, customer, address } = await subscribeAtCheckout({ country: "DE" });
    expectStrict(transactionSchema, transaction, "transaction");
    const include = TRANSACTION_INCLUDES.join(",");
    const full = await dataOf(transactionItem.GET, "GET", `/transactions/${transaction.id}?include=${include}`, {
      params: { transaction_id: transaction.id },
    });
    // Without a business, a discount or adjustments, those keys are left out (as the family does);
    // the others must be there. (Their shapes when present: app/api/transactions, checked strictly.)
    const absent = ["adjustment", "adjustments", "business", "discount"];
    const includeKeys = TRANSACTION_INCLUDES.filter((name) => !absent.includes(name));
    expectStrict(withIncludes(transactionResponseSchema, includeKeys), full, `transaction?include=${include}`);
    for (const name of absent) expect(full).not.toHaveProperty(name);

    const refund = await dataOf(adjustments.POST, "POST", "/adjustments", {
      body: {
        action: "refund",
        type: "partial",
        transaction_id: transaction.id,
        reason: "Asked",
        items: [{ item_id: full.details.line_items[0].id, type: "partial", amount: "100" }],
      },
    });
    expectStrict(adjustmentSchema, refund, "adjustment");
    const credit = await dataOf(adjustments.POST, "POST", "/adjustments", {
      body: { action: "credit", type: "full", transaction_id: transaction.id, reason: "Goodwill" },
    }).catch(() => null);
    if (credit) expectStrict(adjustmentSchema, credit, "credit adjustment");
    const withAdjustments = await dataOf(
      transactionItem.GET,
      "GET",
      `/transactions/${transaction.id}?include=${include}`,
      { params: { transaction_id: transaction.id } },
    );
    expect(withAdjustments.adjustments.length).toBeGreaterThan(0);
    expectStrict(
      withIncludes(transactionResponseSchema, [...includeKeys, "adjustments"]),
      withAdjustments,
      "transaction with adjustments",
    );
    expectEachStrict(adjustmentSchema, await dataOf(adjustments.GET, "GET", "/adjustments"), "adjustment list");

    const params = { customer_id: customer.id };
    expectEachStrict(
      paymentMethodSchema,
      await dataOf(paymentMethods.GET, "GET", `/customers/${customer.id}/payment-methods`, { params }),
      "payment method list",
    );
    // A balance exists only once credit was granted: whatever is there is checked.
    const balances = await dataOf(creditBalances.GET, "GET", `/customers/${customer.id}/credit-balances`, { params });
    for (const balance of balances) expectStrict(creditBalanceSchema, balance, "credit balance");
    expectStrict(
      documentUrlSchema,
      await dataOf(invoice.GET, "GET", `/transactions/${transaction.id}/invoice`, {
        params: { transaction_id: transaction.id },
      }),
      "invoice link",
    );
    expectStrict(
      documentUrlSchema,
      await dataOf(creditNote.GET, "GET", `/adjustments/${refund.id}/credit-note`, {
        params: { adjustment_id: refund.id },
      }),
      "credit note link",
    );

    // The hosted checkout and a card payment on a new ready transaction.
    const ready = await makeReady({}, "DE");
    expectStrict(
      checkoutSchema,
      await dataOf(checkout.GET, "GET", `/checkout/${ready.id}`, { params: { transaction_id: ready.id } }),
      "checkout view",
    );
    expectStrict(checkoutPaymentSchema, await payAtCheckout(ready.id, TEST_CARD), "checkout payment");

    const price = subscription.items[0].price;
    expectStrict(
      pricingPreviewSchema,
      await dataOf(pricingPreview.POST, "POST", "/pricing-preview", {
        body: { items: [{ price_id: price.id, quantity: 2 }], address: { country_code: "DE" } },
      }),
      "pricing preview",
    );
    expectStrict(
      transactionPreviewResultSchema,
      await dataOf(transactionPreview.POST, "POST", "/transactions/preview", {
        body: { items: [{ price_id: price.id, quantity: 1 }], customer_id: customer.id, address_id: address.id },
      }),
      "transaction preview",
    );
  });

  it("subscriptions: the entity with its includes, previews and a charge", async () => {
    const { subscription } = await subscribeAtCheckout();
    expectStrict(subscriptionSchema, subscription, "subscription");
    const id = subscription.id;
    const params = { subscription_id: id };
    const includes = ["next_transaction", "recurring_transaction_details"];
    expectStrict(
      withIncludes(subscriptionSchema, includes),
      await dataOf(subscriptionItem.GET, "GET", `/subscriptions/${id}?include=${includes.join(",")}`, { params }),
      "subscription with includes",
    );
    const extra = await makeRecurringPrice();
    const items = [
      { price_id: subscription.items[0].price.id, quantity: 1 },
      { price_id: extra.id, quantity: 2 },
    ];
    expectStrict(
      subscriptionPreviewSchema,
      await dataOf(subscriptionPreview.PATCH, "PATCH", `/subscriptions/${id}/preview`, {
        params,
        body: { items, proration_billing_mode: "prorated_immediately" },
      }),
      "subscription update preview",
    );
    const oneTime = await makePrice({ description: "Setup fee" });
    const chargeBody = { items: [{ price_id: oneTime.id, quantity: 1 }], effective_from: "next_billing_period" };
    expectStrict(
      subscriptionPreviewSchema,
      await dataOf(chargePreview.POST, "POST", `/subscriptions/${id}/charge/preview`, { params, body: chargeBody }),
      "charge preview",
    );
    const charged = await dataOf(charge.POST, "POST", `/subscriptions/${id}/charge`, { params, body: chargeBody });
    expectStrict(subscriptionSchema, charged, "charged subscription");
    expect(charged.scheduled_change === null || typeof charged.scheduled_change === "object").toBe(true);
  });

  it("notifications: setting, notification, log, replay, events; simulations with runs and events", async () => {
    const receiver = await startReceiver();
    try {
      const setting = await dataOf(notificationSettings.POST, "POST", "/notification-settings", {
        body: { description: "All", destination: receiver.url, subscribed_events: ["customer.created"] },
      });
      expectStrict(notificationSettingSchema, setting, "notification setting");
      await makeBuyer("US");
      const [notification] = await dataOf(notifications.GET, "GET", "/notifications");
      expectStrict(notificationSchema, notification, "notification");
      await deliverNotification(notification.id, 1);
      const nparams = { notification_id: notification.id };
      expectEachStrict(
        notificationLogSchema,
        await dataOf(notificationLogs.GET, "GET", `/notifications/${notification.id}/logs`, { params: nparams }),
        "notification logs",
      );
      expectStrict(
        notificationReplaySchema,
        await dataOf(notificationReplay.POST, "POST", `/notifications/${notification.id}/replay`, { params: nparams }),
        "notification replay",
      );
      expectEachStrict(eventSchema, await dataOf(events.GET, "GET", "/events"), "events");
      expectEachStrict(eventTypeSchema, await dataOf(eventTypes.GET, "GET", "/event-types"), "event types");
      expectEachStrict(
        simulationTypeSchema,
        await dataOf(simulationTypes.GET, "GET", "/simulation-types"),
        "simulation types",
      );

      const simDestination = await insertDestination(receiver.url, [], { trafficSource: "simulation" });
      const simulation = await dataOf(simulations.POST, "POST", "/simulations", {
        body: { notification_setting_id: simDestination.id, name: "Run", type: "customer.created" },
      });
      expectStrict(simulationSchema, simulation, "simulation");
      const sparams = { simulation_id: simulation.id };
      const run = await dataOf(simulationRuns.POST, "POST", `/simulations/${simulation.id}/runs`, { params: sparams });
      expectStrict(simulationRunSchema, run, "simulation run");
      await executeSimulationRun(run.id);
      const rparams = { ...sparams, simulation_run_id: run.id };
      expectStrict(
        withIncludes(simulationRunSchema, ["events"]),
        await dataOf(simulationRun.GET, "GET", `/simulations/${simulation.id}/runs/${run.id}?include=events`, {
          params: rparams,
        }),
        "simulation run with events",
      );
      expectEachStrict(
        simulationEventSchema,
        await dataOf(simulationEvents.GET, "GET", `/simulations/${simulation.id}/runs/${run.id}/events`, {
          params: rparams,
        }),
        "simulation events",
      );
    } finally {
      await receiver.close();
    }
  });

  it("admin: api key, client token, report, account settings, tax rates, metrics", async () => {
    expectStrict(
      apiKeySchema,
      await dataOf(apiKeys.POST, "POST", "/api-keys", { body: { name: "ci", permissions: ["customer.read"] } }),
      "api key",
    );
    expectEachStrict(apiKeySchema, await dataOf(apiKeys.GET, "GET", "/api-keys"), "api key list");
    expectStrict(
      clientTokenSchema,
      await dataOf(clientTokens.POST, "POST", "/client-tokens", { body: { name: "Site" } }),
      "client token",
    );
    const linkedPrice = await makePrice();
    expectStrict(
      paymentLinkSchema,
      await dataOf(paymentLinks.POST, "POST", "/payment-links", {
        body: { items: [{ price_id: linkedPrice.id, quantity: 1 }], success_url: "https://example.com/ok" },
      }),
      "payment link",
    );
    expectEachStrict(paymentLinkSchema, await dataOf(paymentLinks.GET, "GET", "/payment-links"), "payment link list");
    const report = await dataOf(reports.POST, "POST", "/reports", { body: { type: "transactions" } });
    expectStrict(reportSchema, report, "report");
    const link = await call(reportLink.GET, "GET", `/reports/${report.id}/download-url`, {
      key: await admin(),
      params: { report_id: report.id },
    });
    if (link.status === 200) expectStrict(reportUrlSchema, link.body.data, "report link");
    expectStrict(accountSettingsSchema, await dataOf(accountSettings.GET, "GET", "/account-settings"), "settings");
    expectStrict(
      taxRateSchema,
      await dataOf(taxRate.PUT, "PUT", "/tax-rates/DE", { params: { country_code: "DE" }, body: { rate: "0.19" } }),
      "tax rate",
    );
    expectEachStrict(taxRateSchema, await dataOf(taxRates.GET, "GET", "/tax-rates"), "tax rates");

    await subscribeAtCheckout();
    const range = "?from=2026-01-01&to=2027-01-01";
    for (const [handler, schema, name] of [
      [revenue.GET, revenueMetricsSchema, "revenue"],
      [refunds.GET, amountMetricsSchema, "refunds"],
      [chargebacks.GET, countMetricsSchema, "chargebacks"],
      [mrr.GET, amountMetricsSchema, "monthly-recurring-revenue"],
      [mrrChange.GET, amountMetricsSchema, "monthly-recurring-revenue-change"],
      [mrrMovements.GET, mrrMovementsMetricsSchema, "monthly-recurring-revenue-movements"],
      [activeSubscribers.GET, countMetricsSchema, "active-subscribers"],
      [checkoutConversion.GET, checkoutConversionMetricsSchema, "checkout-conversion"],
    ] as const) {
      expectStrict(schema, await dataOf(handler, "GET", `/metrics/${name}${range}`), `metrics ${name}`);
    }
  });
});
