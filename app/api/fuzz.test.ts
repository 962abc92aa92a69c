/**
 * Fuzz of every API route (issue #13: zero 500s on hostile input). Every app/api/** /route.ts is
 * found on disk and each exported method handler is called, the way Next.js calls it, on a real
 * PostgreSQL with real entities behind the path IDs (and with garbage IDs), with:
 *
 * - a valid base request per endpoint, then every field of its body (nested ones too) replaced by
 *   wrong types, huge strings and numbers, deep nesting, unpaired surrogates, NUL, extreme dates,
 *   arrays where objects go and the reverse (a fixed list, plus fast-check's JSON values from a
 *   fixed seed), each field left out, and unknown fields;
 * - whole bodies that are not JSON objects: invalid UTF-8 bytes, truncated or non-object JSON,
 *   deep nesting, other content types;
 * - malformed query parameters: every parameter name any route's query schema knows, with hostile
 *   values; and garbage path IDs.
 *
 * Every answer must be below 500, and every 4xx in the API's error shape (`error.type`,
 * `error.code`, `error.detail`, and `error.errors[].field` for invalid_field). Deterministic: the
 * same requests every run. The counts are printed at the end.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as creditNote from "@/app/api/adjustments/[adjustment_id]/credit-note/route";
import * as adjustments from "@/app/api/adjustments/route";
import * as checkoutPayments from "@/app/api/checkout/[transaction_id]/payments/route";
import * as clientTokens from "@/app/api/client-tokens/route";
import * as discountGroups from "@/app/api/discount-groups/route";
import * as notificationSettings from "@/app/api/notification-settings/route";
import * as reportDownloadUrl from "@/app/api/reports/[report_id]/download-url/route";
import * as reports from "@/app/api/reports/route";
import * as simulationRuns from "@/app/api/simulations/[simulation_id]/runs/route";
import * as simulations from "@/app/api/simulations/route";
import * as taxRate from "@/app/api/tax-rates/[country_code]/route";
import * as transactionInvoice from "@/app/api/transactions/[transaction_id]/invoice/route";
import { query } from "@/lib/db/sql";
import { BASE, call, testKeyWithId } from "@/lib/dev/test/api";
import { insertDestination, makeChange } from "@/lib/dev/test/notifications";
import { admin } from "@/lib/dev/test/resource";
import { staffSession } from "@/lib/dev/test/staff";
import { makeRecurringPrice, subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import {
  MANUAL_TERMS,
  makeAddress,
  makeBusiness,
  makeBuyer,
  makeCustomer,
  makeDiscount,
  makePrice,
  makeProduct,
  makeReady,
  transactions,
} from "@/lib/dev/test/transactions";
import { methodNotAllowed, routeNotFound } from "@/lib/http/route";
import { generateReport } from "@/lib/services/reports/generate";
import { createInvite } from "@/lib/services/team/invites";
import { toWellFormed } from "@/lib/unicode";

const API_DIR = import.meta.dirname;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handler = (request: Request, context: { params: Promise<Record<string, unknown>> }) => Promise<Response>;

interface Route {
  /** The path under /api, with its [param] segments: `customers/[customer_id]`. */
  template: string;
  params: string[];
  handlers: Partial<Record<Method, Handler>>;
}

/** Every route.ts under app/api, with its exported method handlers. */
async function discoverRoutes(): Promise<Route[]> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === "route.ts") files.push(full);
    }
  };
  walk(API_DIR);
  const routes: Route[] = [];
  for (const file of files.sort()) {
    const template = path.relative(API_DIR, path.dirname(file)).split(path.sep).join("/");
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const handlers: Route["handlers"] = {};
    for (const method of METHODS) {
      if (typeof module[method] === "function") handlers[method] = module[method] as Handler;
    }
    const params = [...template.matchAll(/\[(?:\.\.\.)?([^\]]+)\]/g)].map((m) => m[1]!);
    routes.push({ template, params, handlers });
  }
  return routes;
}

// ---------------------------------------------------------------------------------------------
// Hostile values

function nestedArrays(depth: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

function nestedObjects(depth: number): unknown {
  let value: unknown = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

const HUGE_TEXT = "x".repeat(100_000);

/** What replaces a body field, whatever the field is. */
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  -1e308,
  2 ** 53 + 2,
  "",
  HUGE_TEXT,
  "9".repeat(400),
  "NaN",
  "\udc00",
  "ok\ud800",
  "a\u0000b",
  "😀",
  [],
  { a: 1 },
  nestedArrays(40),
  nestedObjects(40),
  "2030-01-01T00:00:00+23:00",
  "275760-09-13T00:00:00Z",
  "0000-01-01T00:00:00Z",
  "2030-02-30T00:00:00Z",
  "9999-12-31T23:59:59.9999999Z",
  `2030-01-01T00:00:00.${"1".repeat(60)}Z`,
  "ctm_00000000000000000000000000",
];

/** The hostile values for a nested field: one of each kind. */
const NESTED_HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  1e308,
  "",
  HUGE_TEXT,
  "\udc00",
  "a\u0000b",
  [],
  {},
  nestedArrays(40),
  "2030-01-01T00:00:00+23:00",
];

/**
 * Arbitrary JSON values from a fixed seed: the same ones every run. FUZZ_SEED=<n> draws others
 * (and FUZZ_RUNS=<n> more of them) to explore; a failure then names the value's index.
 */
const RANDOM_VALUES: unknown[] = fc.sample(fc.jsonValue({ maxDepth: 4 }), {
  seed: Number(process.env.FUZZ_SEED ?? 13),
  numRuns: Number(process.env.FUZZ_RUNS ?? 12),
});

/** Query parameter values (already encoded for the URL). */
const QUERY_VALUES = [
  "",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%FF%FE",
  "x".repeat(5_000),
  "-1",
  "0",
  "1.5",
  "1e309",
  "99999999999999999999",
  ",,,",
  "id%5BASC%5D",
  "created_at%5BDESC%5D",
  "nonsense%5BASC%5D",
  "2030-01-01T00%3A00%3A00%2B23%3A00",
  "275760-09-13T00%3A00%3A00Z",
  "0000-01-01",
  "9999-12-31",
  "10000-01-01",
  "2030-02-30",
  "ctm_00000000000000000000000000",
  "%F0%9F%98%80",
];

/** Garbage for path parameters (raw: Next.js hands handlers decoded segments). */
const GARBAGE_IDS: unknown[] = [
  "",
  "x",
  "\u0000",
  "\udc00",
  "%00",
  "a".repeat(10_000),
  "../../etc/passwd",
  "ctm_zzzzzzzzzzzzzzzzzzzzzzzzzz",
  "CTM_00000000000000000000000000",
  "dsc_00000000000000000000000000@dscrev_00000000000000000000000000",
  ["a", "b"],
];

// ---------------------------------------------------------------------------------------------
// Fixtures: one of every entity, made through the real handlers

type Ids = Record<string, string>;
type BaseRequest = { query?: string; body?: unknown; params?: Ids };
let routes: Route[] = [];
let base: Record<string, BaseRequest> = {};
let ids: Ids = {};
let queryKeys: string[] = [];
let subscriptionPrices = { kept: "", added: "" };

async function created(res: Awaited<ReturnType<typeof call<any>>>, what: string): Promise<any> {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body.data;
}

async function fixtures(): Promise<void> {
  const key = await admin();
  const product = await makeProduct();
  const price = await makePrice({ product_id: product.id });
  const customer = await makeCustomer();
  const address = await makeAddress(customer.id);
  const business = await makeBusiness(customer.id);
  const discount = await makeDiscount();
  const group = await created(
    await call(discountGroups.POST, "POST", "/discount-groups", { key, body: { name: "Group" } }),
    "discount group",
  );
  const ready = await makeReady();
  const payable = await makeReady();
  const buyer = await makeBuyer();
  const billed = await makeReady({ collection_mode: "manual", billing_details: MANUAL_TERMS });
  await created(await transactions.update(billed.id, { status: "billed" }), "billed invoice");
  const completed = await makeReady();
  await created(
    await call(checkoutPayments.POST, "POST", `/checkout/${completed.id}/payments`, {
      params: { transaction_id: completed.id },
      body: { cardholder_name: "Sam", number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" },
    }),
    "payment",
  );
  const adjustment = await created(
    await call(adjustments.POST, "POST", "/adjustments", {
      key,
      body: { action: "refund", transaction_id: completed.id, reason: "fuzz", type: "full" },
    }),
    "adjustment",
  );
  const setting = await created(
    await call(notificationSettings.POST, "POST", "/notification-settings", {
      key,
      body: {
        description: "Fuzz",
        destination: "http://127.0.0.1:9/hook",
        subscribed_events: ["customer.created"],
        traffic_source: "all",
      },
    }),
    "notification setting",
  );
  // DELETE gets entities of its own, so that the others stay for the routes after it.
  const doomed = await created(
    await call(notificationSettings.POST, "POST", "/notification-settings", {
      key,
      body: {
        description: "Doomed",
        destination: "http://127.0.0.1:9/doomed",
        subscribed_events: ["customer.created"],
      },
    }),
    "notification setting to delete",
  );
  await created(
    await call(taxRate.PUT, "PUT", "/tax-rates/FR", { key, params: { country_code: "FR" }, body: { rate: "0.2" } }),
    "tax rate to delete",
  );
  await insertDestination("http://127.0.0.1:9/other", ["customer.created"]);
  await makeChange();
  // Delivered, so that it can be replayed.
  const [notification] = await query<{ id: string }>(
    `UPDATE notifications SET status = 'delivered', times_attempted = 1, delivered_at = now(), last_attempt_at = now()
     WHERE id = (SELECT id FROM notifications WHERE notification_setting_id = $1 ORDER BY id LIMIT 1) RETURNING id`,
    [setting.id],
  );
  const simulation = await created(
    await call(simulations.POST, "POST", "/simulations", {
      key,
      body: { notification_setting_id: setting.id, name: "Fuzz", type: "customer.created" },
    }),
    "simulation",
  );
  const run = await created(
    await call(simulationRuns.POST, "POST", `/simulations/${simulation.id}/runs`, {
      key,
      params: { simulation_id: simulation.id },
    }),
    "simulation run",
  );
  const [simulationEvent] = await query<{ id: string }>(
    "SELECT id FROM simulation_events WHERE simulation_run_id = $1 ORDER BY id LIMIT 1",
    [run.id],
  );
  const apiKey = await testKeyWithId(["customer.read"]);
  const clientToken = await created(
    await call(clientTokens.POST, "POST", "/client-tokens", { key, body: { name: "Fuzz token" } }),
    "client token",
  );
  await created(
    await call(taxRate.PUT, "PUT", "/tax-rates/DE", { key, params: { country_code: "DE" }, body: { rate: "0.19" } }),
    "tax rate",
  );
  const invoiceLink = await created(
    await call(transactionInvoice.GET, "GET", `/transactions/${billed.id}/invoice`, {
      key,
      params: { transaction_id: billed.id },
    }),
    "invoice link",
  );
  const creditNoteLink = await created(
    await call(creditNote.GET, "GET", `/adjustments/${adjustment.id}/credit-note`, {
      key,
      params: { adjustment_id: adjustment.id },
    }),
    "credit note link",
  );

  // A ready report with rows (the transactions made above), and its signed download link.
  const report = await created(
    await call(reports.POST, "POST", "/reports", { key, body: { type: "transactions" } }),
    "report",
  );
  await generateReport(report.id);
  const reportLink = await created(
    await call(reportDownloadUrl.GET, "GET", `/reports/${report.id}/download-url`, {
      key,
      params: { report_id: report.id },
    }),
    "report link",
  );

  // A subscription bought at the checkout, and prices to change and charge it with.
  const { subscription } = await subscribeAtCheckout();
  const monthly = await makeRecurringPrice({
    product_id: product.id,
    unit_price: { amount: "500", currency_code: "USD" },
  });
  subscriptionPrices = { kept: subscription.items[0].price.id, added: monthly.id };
  // The team: a member to change and remove, and an invitation to accept (its one-time token).
  const teammate = await staffSession("viewer");
  const invite = (await createInvite({ email: "fuzz-invite@example.com", role: "viewer" }, null)).parse();
  inviteToken = invite.url?.split("/invite/")[1] ?? "";

  ids = {
    subscription_id: subscription.id,
    product_id: product.id,
    price_id: price.id,
    customer_id: customer.id,
    address_id: address.id,
    business_id: business.id,
    discount_id: discount.id,
    discount_group_id: group.id,
    transaction_id: ready.id,
    adjustment_id: adjustment.id,
    notification_setting_id: setting.id,
    notification_id: notification!.id,
    simulation_id: simulation.id,
    simulation_run_id: run.id,
    simulation_event_id: simulationEvent!.id,
    api_key_id: apiKey.id,
    client_token_id: clientToken.id,
    country_code: "DE",
    report_id: report.id,
    user_id: teammate.userId,
    invite_id: invite.id,
  };

  const item = { price_id: price.id, quantity: 1 };
  const customData = { plan: "pro", tags: ["a", "b"], nested: { n: 1 } };
  const nonCatalogueItem = {
    quantity: 2,
    price: {
      description: "Custom",
      unit_price: { amount: "2500", currency_code: "USD" },
      product: { name: "Custom product", tax_category: "standard" },
    },
  };
  const body = (b: unknown): BaseRequest => ({ body: b });
  base = {
    "PATCH account-settings": body({ merchant_name: "Fuzz Inc", merchant_address: "1 Road", tax_mode: "external" }),
    "GET adjustments": { query: `transaction_id=${completed.id}&action=refund` },
    "POST adjustments": body({
      action: "credit",
      transaction_id: billed.id,
      reason: "Goodwill",
      type: "partial",
      tax_mode: "internal",
      items: [{ item_id: billed.details.line_items[0].id, type: "partial", amount: "100" }],
    }),
    "POST api-keys": body({
      name: "Fuzz key",
      description: "d",
      permissions: ["customer.read", "product.write"],
      expires_at: "2031-01-01T00:00:00Z",
    }),
    "PATCH api-keys/[api_key_id]": body({ name: "Renamed", description: null }),
    "GET client-tokens": { query: "status=active,revoked&order_by=id[DESC]" },
    "POST client-tokens": body({ name: "Fuzz token", description: "Pricing page" }),
    // Renaming keeps the token active for the requests after it (a revocation would end them).
    "PATCH client-tokens/[client_token_id]": body({ name: "Renamed token", description: null, status: "active" }),
    "POST checkout/[transaction_id]/payments": {
      params: { transaction_id: payable.id },
      body: { cardholder_name: "Sam Buyer", number: "4000 0000 0000 0002", expiry: "12/39", cvc: "123" },
    },
    "GET checkout/[transaction_id]": { params: { transaction_id: payable.id } },
    "GET customers": { query: `email=${encodeURIComponent(customer.email)}&status=active` },
    "POST customers": body({ email: "fuzz@example.com", name: "Fuzz", custom_data: customData, locale: "en" }),
    "PATCH customers/[customer_id]": body({ name: "Fuzzed", custom_data: customData, locale: "pt-BR" }),
    "POST customers/[customer_id]/portal-sessions": {
      params: { customer_id: subscription.customer_id },
      body: { subscription_ids: [subscription.id] },
    },
    "POST customers/[customer_id]/addresses": body({
      country_code: "US",
      postal_code: "10001",
      first_line: "1 Main St",
      city: "New York",
      region: "NY",
      custom_data: customData,
    }),
    "PATCH customers/[customer_id]/addresses/[address_id]": body({ city: "Albany", custom_data: customData }),
    "POST customers/[customer_id]/businesses": body({
      name: "Acme",
      company_number: "123",
      tax_identifier: "DE123456789",
      contacts: [{ name: "Ann", email: "ann@example.com" }],
      custom_data: customData,
    }),
    "PATCH customers/[customer_id]/businesses/[business_id]": body({
      contacts: [{ name: "Bob", email: "bob@example.com" }],
      custom_data: customData,
    }),
    "POST discount-groups": body({ name: "Fuzz group" }),
    "PATCH discount-groups/[discount_group_id]": body({ name: "Renamed group" }),
    "GET discounts": { query: "status=active&mode=standard" },
    "POST discounts": body({
      description: "Fuzz discount",
      type: "flat",
      amount: "500",
      currency_code: "USD",
      code: "FUZZ1",
      enabled_for_checkout: true,
      recur: true,
      maximum_recurring_intervals: 3,
      usage_limit: 10,
      restrict_to: [price.id],
      expires_at: "2031-01-01T00:00:00Z",
      custom_data: customData,
      discount_group_id: group.id,
    }),
    "PATCH discounts/[discount_id]": body({ description: "Changed", amount: "15", expires_at: "2032-01-01T00:00:00Z" }),
    "GET documents/invoices/[transaction_id]": {
      params: { transaction_id: billed.id },
      query: new URL(invoiceLink.url).search.slice(1),
    },
    "GET documents/credit-notes/[adjustment_id]": { query: new URL(creditNoteLink.url).search.slice(1) },
    "GET documents/reports/[report_id]": { query: new URL(reportLink.url).search.slice(1) },
    "GET reports": { query: "status=pending,ready&order_by=id[DESC]" },
    "POST reports": body({
      type: "transactions",
      filters: [
        { name: "status", operator: null, value: ["completed", "billed"] },
        { name: "collection_mode", value: "manual" },
        { name: "updated_at", operator: "gte", value: "2020-01-01" },
        { name: "updated_at", operator: "lt", value: "2040-01-01T00:00:00Z" },
      ],
    }),
    "GET events": { query: "event_type=customer.created" },
    "GET metrics/revenue": { query: "from=2026-01-01&to=2026-02-01" },
    "GET metrics/monthly-recurring-revenue": { query: "from=2026-01-01&to=2026-02-01" },
    "GET metrics/monthly-recurring-revenue-change": { query: "from=2026-01-01&to=2026-02-01" },
    "GET metrics/monthly-recurring-revenue-movements": { query: "from=2026-01-01&to=2026-02-01" },
    "GET metrics/active-subscribers": { query: "from=2026-01-01&to=2026-02-01" },
    "GET metrics/refunds": { query: "from=2026-01-01&to=2026-02-01" },
    "GET metrics/chargebacks": { query: "from=2026-01-01&to=2026-02-01" },
    "GET metrics/checkout-conversion": { query: "from=2026-01-01&to=2026-02-01" },
    "GET notification-settings": { query: "active=true&traffic_source=all" },
    "POST notification-settings": body({
      description: "Fuzz hook",
      destination: "https://example.com/hook",
      subscribed_events: ["customer.created", "transaction.completed"],
      type: "url",
      api_version: 1,
      include_sensitive_fields: false,
      traffic_source: "all",
      active: false,
    }),
    "PATCH notification-settings/[notification_setting_id]": body({
      description: "Changed",
      subscribed_events: ["customer.updated"],
      active: true,
    }),
    "GET notifications": {
      query: `notification_setting_id=${setting.id}&status=not_attempted&from=2020-01-01T00:00:00Z&to=2040-01-01T00:00:00Z&search=x&filter=${customer.id}`,
    },
    "GET prices": { query: `product_id=${product.id}&include=product` },
    "POST prices": body({
      product_id: product.id,
      description: "Monthly",
      name: "Monthly",
      billing_cycle: { interval: "month", frequency: 1 },
      trial_period: { interval: "day", frequency: 7 },
      tax_mode: "account_setting",
      unit_price: { amount: "1000", currency_code: "USD" },
      unit_price_overrides: [{ country_codes: ["DE"], unit_price: { amount: "900", currency_code: "EUR" } }],
      quantity: { minimum: 1, maximum: 10 },
      custom_data: customData,
    }),
    "PATCH prices/[price_id]": body({ description: "Changed", unit_price: { amount: "1200", currency_code: "USD" } }),
    "POST pricing-preview": body({
      items: [item],
      customer_id: buyer.customer.id,
      address_id: buyer.address.id,
      currency_code: "USD",
      discount_id: discount.id,
    }),
    "GET products": { query: "include=prices&status=active&tax_category=standard" },
    "POST products": body({
      name: "Fuzz product",
      tax_category: "standard",
      description: "d",
      type: "standard",
      image_url: "https://example.com/a.png",
      custom_data: customData,
    }),
    "PATCH products/[product_id]": body({ name: "Changed", custom_data: customData }),
    "POST simulations": body({
      notification_setting_id: setting.id,
      name: "Fuzz simulation",
      type: "customer.created",
      payload: { id: customer.id, email: "sim@example.com", custom_data: customData },
    }),
    "PATCH simulations/[simulation_id]": body({ name: "Changed", payload: { email: "x@example.com" } }),
    "PUT tax-rates/[country_code]": body({ rate: "0.2" }),
    "POST team/invites": body({ email: "fuzz-teammate@example.com", role: "developer" }),
    "POST team/invites/accept": body({ token: inviteToken, password: "a fuzz password" }),
    "PATCH team/members/[user_id]": body({ role: "developer" }),
    "DELETE tax-rates/[country_code]": { params: { country_code: "FR" } },
    "DELETE notification-settings/[notification_setting_id]": { params: { notification_setting_id: doomed.id } },
    "GET transactions": {
      query: `status=ready,billed&customer_id=${customer.id}&created_at[GTE]=2020-01-01T00:00:00Z&include=customer,address`,
    },
    "POST transactions": {
      query: "include=customer",
      body: {
        items: [item, nonCatalogueItem],
        customer_id: buyer.customer.id,
        address_id: buyer.address.id,
        currency_code: "USD",
        collection_mode: "manual",
        billing_details: { ...MANUAL_TERMS, enable_checkout: true, purchase_order_number: "PO-1" },
        billing_period: { starts_at: "2030-01-01T00:00:00Z", ends_at: "2030-02-01T00:00:00Z" },
        discount: { description: "Off", type: "percentage", amount: "5" },
        custom_data: customData,
        checkout: { url: "https://shop.example.com/pay" },
      },
    },
    "PATCH transactions/[transaction_id]": body({
      items: [item],
      custom_data: customData,
      billing_period: { starts_at: "2030-01-01T00:00:00Z", ends_at: "2030-02-01T00:00:00Z" },
    }),
    "POST transactions/[transaction_id]/mark-paid": {
      params: { transaction_id: billed.id },
      body: { method: "wire_transfer", reference: "REF-1" },
    },
    "POST transactions/[transaction_id]/revise": {
      params: { transaction_id: completed.id },
      body: {
        customer: { name: "Revised" },
        address: { first_line: "2 Road", city: "Boston" },
        business: { name: "Revised Ltd" },
      },
    },
    "GET transactions/[transaction_id]/invoice": { params: { transaction_id: billed.id }, query: "disposition=inline" },
    "PATCH subscriptions/[subscription_id]": body(subscriptionChange()),
    "PATCH subscriptions/[subscription_id]/preview": body(subscriptionChange()),
    "POST subscriptions/[subscription_id]/charge": body(subscriptionCharge()),
    "POST subscriptions/[subscription_id]/charge/preview": body(subscriptionCharge()),
    "POST transactions/preview": body({
      items: [{ ...item, include_in_totals: true }, nonCatalogueItem],
      address: { country_code: "DE", postal_code: "10115" },
      currency_code: "USD",
      customer_ip_address: "192.0.2.1",
      ignore_trials: true,
    }),
  };
}

/** A PATCH /subscriptions/{id} setting most fields (`ids` and the fixtures made). */
function subscriptionChange() {
  return {
    items: [
      { price_id: subscriptionPrices.kept, quantity: 2 },
      { price_id: subscriptionPrices.added, quantity: 1 },
      {
        quantity: 1,
        price: {
          description: "Custom seat",
          billing_cycle: { interval: "month", frequency: 1 },
          unit_price: { amount: "700", currency_code: "USD" },
          product_id: ids.product_id,
        },
      },
    ],
    proration_billing_mode: "prorated_immediately",
    on_payment_failure: "apply_change",
    next_billed_at: new Date(Date.now() + 40 * 86_400_000).toISOString(),
    discount: { id: ids.discount_id, effective_from: "next_billing_period" },
    custom_data: { plan: "pro", tags: ["a", "b"] },
    scheduled_change: null,
  };
}

/** A POST /subscriptions/{id}/charge of a catalogue and a non-catalogue one-time price. */
function subscriptionCharge() {
  return {
    effective_from: "immediately",
    on_payment_failure: "apply_change",
    items: [
      { price_id: ids.price_id, quantity: 1 },
      {
        quantity: 1,
        price: {
          description: "Setup",
          unit_price: { amount: "900", currency_code: "USD" },
          product_id: ids.product_id,
        },
      },
    ],
  };
}

/** Every parameter name a query schema of lib/schemas knows (the routes' query schemas come from there). */
async function allQueryKeys(): Promise<string[]> {
  const dir = path.resolve(API_DIR, "../../lib/schemas");
  const keys = new Set<string>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))) {
    const module = (await import(pathToFileURL(path.join(dir, name)).href)) as Record<string, unknown>;
    for (const [exported, value] of Object.entries(module)) {
      if (!/Query$/.test(exported)) continue;
      let schema = value as z.ZodType;
      // Refined objects (metrics) wrap the object in a pipe or effect: look for its shape.
      for (let i = 0; i < 3 && schema && !(schema instanceof z.ZodObject); i++) {
        schema = (schema as unknown as { def?: { in?: z.ZodType; schema?: z.ZodType } }).def?.in as z.ZodType;
      }
      if (schema instanceof z.ZodObject) for (const key of Object.keys(schema.shape)) keys.add(key);
    }
  }
  return [...keys].sort();
}

// ---------------------------------------------------------------------------------------------
// Requests and checks

const statuses = new Map<number, number>();
const failures: string[] = [];
let requests = 0;
/** How each endpoint's valid base request was answered: the fuzz reached past validation there. */
const baseAnswers: string[] = [];
const perTest = new Map<string, number>();
/** NextAuth requests that reached NextAuth itself, which cannot run outside a Next.js server. */
let outOfScope = 0;
let adminKey = "";
let inviteToken = "";

function urlOf(route: Route, params: Record<string, unknown>, queryText = ""): string {
  const pathText = route.template.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, (_, name: string) => {
    const value = params[name];
    // A URL cannot carry an unpaired surrogate (the handler still gets the raw parameter).
    const segment = (v: unknown) => encodeURIComponent(toWellFormed(String(v ?? "")));
    return Array.isArray(value) ? value.map(segment).join("/") : segment(value);
  });
  return `${BASE}/${pathText}${queryText ? `?${queryText}` : ""}`;
}

function paramsOf(route: Route, override?: Ids): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const name of route.params) {
    if (name === "path") params.path = ["no", "such", "endpoint"];
    else if (name === "nextauth") params.nextauth = ["session"];
    else params[name] = override?.[name] ?? ids[name];
  }
  return params;
}

interface Send {
  route: Route;
  method: Method;
  label: string;
  params?: Record<string, unknown>;
  query?: string;
  body?: string | Uint8Array<ArrayBuffer>;
  contentType?: string | null;
  key?: string | null;
  headers?: Record<string, string>;
}

async function send(s: Send): Promise<void> {
  const handler = s.route.handlers[s.method];
  if (!handler) return;
  const params = s.params ?? paramsOf(s.route, base[`${s.method} ${s.route.template}`]?.params);
  const headers: Record<string, string> = { ...s.headers };
  const key = s.key === undefined ? adminKey : s.key;
  if (key) headers.authorization = `Bearer ${key}`;
  if (s.body !== undefined && s.contentType !== null) headers["content-type"] = s.contentType ?? "application/json";
  const body = s.method === "GET" ? undefined : s.body;
  // What Next.js hands a route handler (NextAuth's reads nextUrl).
  const request = new NextRequest(urlOf(s.route, params, s.query), { method: s.method, headers, body });
  const where = `${s.method} /${s.route.template} [${s.label}]`;
  requests += 1;
  const test = expect.getState().currentTestName ?? "";
  perTest.set(test, (perTest.get(test) ?? 0) + 1);
  let response: Response;
  try {
    response = await handler(request, { params: Promise.resolve(params) });
  } catch (error) {
    // NextAuth needs Next.js's request scope (cookies()), which exists only in a real server: what
    // passes our check in front of it (lib/http/next-auth-route.ts) cannot go further here.
    if (s.route.template.startsWith("auth/") && /outside a request scope/.test(String(error))) {
      outOfScope += 1;
      return;
    }
    failures.push(`${where}: threw ${(error as Error)?.stack ?? error}`);
    return;
  }
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  if (s.label === "base") baseAnswers.push(`${response.status} ${s.method} /${s.route.template}`);
  const text = await response.text();
  if (response.status >= 500) {
    failures.push(`${where}: ${response.status} ${text.slice(0, 300)}`);
    return;
  }
  // NextAuth's own handler answers in its own shapes (redirects, HTML): only "no 5xx" applies to it.
  if (s.route.template.startsWith("auth/")) return;
  if (response.status >= 400) {
    const problem = errorShapeProblem(text, response.status);
    if (problem) failures.push(`${where}: ${response.status} ${problem}: ${text.slice(0, 300)}`);
  }
}

/** Requests in flight at once: the time goes to the database, not the CPU. */
const CONCURRENCY = 8;

async function runAll(queue: Send[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < queue.length) await send(queue[next++]!);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The 405 and 404 handlers of lib/http/route.ts, which answer the same whatever is sent. */
function fixedAnswer(handler: Handler): boolean {
  return (handler as unknown) === methodNotAllowed || (handler as unknown) === routeNotFound;
}

/** Fails the test with the failures found, one example of each endpoint and status, and forgets them. */
function expectNoFailures(): void {
  const found = failures.splice(0);
  const examples = new Map<string, { example: string; count: number }>();
  for (const failure of found) {
    const kind = failure.replace(/ \[.*?\]: /, " ").slice(0, 80);
    const seen = examples.get(kind);
    if (seen) seen.count += 1;
    else examples.set(kind, { example: failure, count: 1 });
  }
  const report = [...examples.values()].map(({ example, count }) => `(${count}x) ${example.slice(0, 600)}`);
  expect(found.length, report.join("\n\n")).toBe(0);
}

function errorShapeProblem(text: string, status: number): string | null {
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    return "body is not JSON";
  }
  const error = parsed?.error;
  if (!error || typeof error !== "object") return "no error object";
  // Every 4xx is a request_error in the API family (429 included); api_error is for 5xx.
  const expected = status >= 500 ? "api_error" : "request_error";
  if (error.type !== expected) return `error.type is not ${expected}`;
  if (typeof error.code !== "string" || error.code === "") return "no error.code";
  if (typeof error.detail !== "string" || error.detail === "") return "no error.detail";
  if (error.code === "invalid_field") {
    if (!Array.isArray(error.errors) || error.errors.length === 0) return "invalid_field without errors";
    for (const e of error.errors) {
      if (typeof e?.field !== "string" || e.field === "" || typeof e?.message !== "string") {
        return "an errors[] entry without field and message";
      }
    }
  }
  return null;
}

/** Every path into a JSON value (object keys and array indexes), the value's own path first. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...paths(v, [...prefix, i]));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

function replaced(value: unknown, at: (string | number)[], by: unknown): unknown {
  if (at.length === 0) return by;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[at[0]!] = replaced(copy[at[0]!], at.slice(1), by);
  return copy;
}

function removed(value: unknown, at: (string | number)[]): unknown {
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  if (at.length === 1) {
    if (Array.isArray(copy)) copy.splice(at[0] as number, 1);
    else delete copy[at[0]!];
  } else copy[at[0]!] = removed(copy[at[0]!], at.slice(1));
  return copy;
}

function valueAt(value: unknown, at: (string | number)[]): unknown {
  return at.reduce<any>((v, k) => v?.[k], value);
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const bytes = (...parts: (string | number[])[]): Uint8Array<ArrayBuffer> =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...utf8(p)] : p)));

/** Whole bodies that are not a clean JSON object. */
const BAD_BODIES: [string, string | Uint8Array<ArrayBuffer>, string | null][] = [
  ["invalid UTF-8 byte", bytes('{"name":"', [0xff, 0xfe], '"}'), "application/json"],
  ["UTF-8 encoded surrogate", bytes('{"name":"', [0xed, 0xa0, 0x80], '"}'), "application/json"],
  ["overlong UTF-8", bytes('{"name":"', [0xc0, 0xaf], '"}'), "application/json"],
  ["truncated UTF-8 sequence", bytes('{"name":"', [0xe2, 0x82]), "application/json"],
  ["only bad bytes", bytes([0xff, 0xff, 0xff]), "application/json"],
  ["UTF-16 body", bytes([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), "application/json"],
  ["NUL bytes", bytes("{", [0], "}"), "application/json"],
  ["truncated JSON", '{"name": "a', "application/json"],
  ["JSON array", "[1,2]", "application/json"],
  ["JSON string", '"x"', "application/json"],
  ["JSON null", "null", "application/json"],
  ["JSON number 1e400", "1e400", "application/json"],
  ["empty", "", "application/json"],
  ["deep objects", `{"custom_data":${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}`, "application/json"],
  ["deep arrays", `{"payload":${"[".repeat(5_000)}${"]".repeat(5_000)}}`, "application/json"],
  ["deeper than JSON.parse", `{"x":${"[".repeat(200_000)}${"]".repeat(200_000)}}`, "application/json"],
  ["escaped lone surrogate key", '{"\\udc00":1}', "application/json"],
  ["escaped NUL", '{"name":"\\u0000"}', "application/json"],
  ["__proto__", '{"__proto__":{"admin":true},"constructor":{"prototype":1}}', "application/json"],
  ["duplicate keys", '{"name":"a","name":{"b":1}}', "application/json"],
  ["1e400 value", '{"amount":1e400,"quantity":-1e400}', "application/json"],
  ["text/plain", '{"name":"a"}', "text/plain"],
  ["no content type", '{"name":"a"}', null],
  ["form", "name=a", "application/x-www-form-urlencoded"],
  ["over 1 MiB", `{"x":"${"y".repeat(1_100_000)}"}`, "application/json"],
];

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  routes = await discoverRoutes();
  adminKey = await admin();
  queryKeys = await allQueryKeys();
  await fixtures();
}, 120_000);

afterAll(() => {
  const refused = baseAnswers.filter((answer) => !answer.startsWith("2"));
  console.log(
    `fuzz: base requests last: ${baseAnswers.length - refused.length} of ${baseAnswers.length} succeeded; the others were refused by the state earlier requests left (${refused.join(", ")})`,
  );
  for (const [test, n] of perTest) console.log(`fuzz: ${n} requests: ${test.split(" > ").at(-1)}`);
  const byStatus = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  const handlers = routes.reduce((n, r) => n + Object.keys(r.handlers).length, 0);
  console.log(
    `fuzz: ${routes.length} route files, ${handlers} method handlers, ${requests} requests; statuses ${byStatus.join(", ")}; ${outOfScope} NextAuth requests past our check (not runnable outside Next.js)`,
  );
});

describe("fuzz: every route, hostile input", () => {
  it("finds every route file", () => {
    expect(routes.length).toBeGreaterThanOrEqual(50);
    expect(routes.some((r) => r.template === "customers/[customer_id]/addresses/[address_id]")).toBe(true);
    expect(queryKeys).toContain("per_page");
  });

  it("answers every malformed body below 500, in the error shape", { timeout: 300_000 }, async () => {
    for (const route of routes) {
      for (const method of METHODS) {
        const handler = route.handlers[method];
        if (!handler || method === "GET") continue;
        const own = base[`${method} ${route.template}`];
        const baseBody = own?.body ?? {};
        const query = own?.query;
        const queue: Send[] = [];
        const sendBody = (label: string, value: unknown) =>
          queue.push({ route, method, label, query, body: JSON.stringify(value) });
        // A method the path lacks answers the same whatever is sent: a few bodies show it.
        for (const [label, raw, type] of fixedAnswer(handler) ? BAD_BODIES.slice(0, 3) : BAD_BODIES) {
          queue.push({ route, method, label, query, body: raw, contentType: type });
        }
        if (fixedAnswer(handler)) {
          await runAll(queue);
          continue;
        }
        sendBody("unknown field", { ...(baseBody as object), unknown_field: 1 });
        for (const at of paths(baseBody)) {
          if (at.length > 0) sendBody(`without ${at.join(".")}`, removed(baseBody, at));
          const original = valueAt(baseBody, at);
          // Top-level fields get every hostile value and random JSON values; nested ones a few.
          const values = at.length <= 1 ? [...HOSTILE_VALUES, ...RANDOM_VALUES] : [...NESTED_HOSTILE_VALUES];
          values.push([original], { value: original });
          for (const [i, value] of values.entries()) {
            sendBody(`${at.join(".") || "(body)"} = #${i}`, replaced(baseBody, at, value));
          }
        }
        await runAll(queue);
        // Last, the base body itself (some succeed once and change the entity: paid, billed).
        await send({ route, method, label: "base", query, body: JSON.stringify(baseBody) });
      }
    }
    expectNoFailures();
  });

  it("answers malformed query parameters, headers and garbage path IDs below 500, in the error shape", {
    timeout: 300_000,
  }, async () => {
    for (const route of routes) {
      for (const method of METHODS) {
        const handler = route.handlers[method];
        if (!handler) continue;
        const own = base[`${method} ${route.template}`];
        const queue: Send[] = [];
        // No body: a write is then refused (bad_request) after its query and path are checked,
        // rather than made once for every hostile query.
        const body = undefined;
        const baseQuery = own?.query ?? "";
        const with_ = (extra: string) => (baseQuery ? `${baseQuery}&${extra}` : extra);
        if (fixedAnswer(handler)) {
          await send({ route, method, label: "?%00", query: "after=%00&%ED%A0%80=1", body });
          continue;
        }
        // Every parameter any list knows, with a few hostile values (a different few for each)...
        for (const [k, name] of queryKeys.entries()) {
          // Two values each for reads, whose queries are their input; one for writes.
          const tries = method === "GET" ? 2 : 1;
          for (let j = 0; j < tries; j++) {
            const value = QUERY_VALUES[(k * 2 + j) % QUERY_VALUES.length];
            // Alone: with the base query, a signed document link would render its PDF every time.
            const query = `${encodeURIComponent(name)}=${value}`;
            queue.push({ route, method, label: `?${name}=#${j}`, query, body });
          }
        }
        // ...and the base query's own parameters with every one.
        for (const name of new URLSearchParams(baseQuery).keys()) {
          for (const value of QUERY_VALUES) {
            const rest = new URLSearchParams(baseQuery);
            rest.delete(name);
            const query = `${rest.toString()}${rest.toString() ? "&" : ""}${encodeURIComponent(name)}=${value}`;
            queue.push({ route, method, label: `?${name}=${value.slice(0, 20)}`, query, body });
          }
        }
        for (const query of [
          "per_page=10&per_page=abc",
          "%00=1",
          "%ED%A0%80=1",
          "a[b][c]=1",
          "&&&=&",
          `include=${"x,".repeat(2000)}`,
        ]) {
          queue.push({ route, method, label: `?${query.slice(0, 20)}`, query: with_(query), body });
        }
        for (const param of route.params) {
          if (param === "path" || param === "nextauth") continue;
          const garbage = [...GARBAGE_IDS, param === "customer_id" ? ids.product_id : ids.customer_id];
          for (const [i, value] of garbage.entries()) {
            const params = { ...paramsOf(route, own?.params), [param]: value };
            // With the base body: an ID shaped right but naming nothing goes as far as the service.
            const withBody = method === "GET" ? undefined : JSON.stringify(own?.body ?? {});
            queue.push({ route, method, label: `${param} garbage #${i}`, params, query: baseQuery, body: withBody });
          }
        }
        queue.push({ route, method, label: "no key", key: null, query: baseQuery, body });
        queue.push({ route, method, label: "bad key", key: "svc_apikey_sdbx_\u00ff", query: baseQuery, body });
        for (const version of ["0", "-1", "1e309", "99999999999999999999", "\u00ff", " 1 "]) {
          const headers = { "service-version": version };
          queue.push({ route, method, label: `Service-Version ${version}`, headers, query: baseQuery, body });
        }
        await runAll(queue);
      }
    }
    expectNoFailures();
  });
});
