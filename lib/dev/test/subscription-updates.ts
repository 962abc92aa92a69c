/**
 * Changing subscriptions in tests, through the real handlers: PATCH and its preview, one-time
 * charges and their preview, the sandbox test clock, and what a change leaves behind (transactions,
 * credit balances, pending lines).
 */
import { expect } from "vitest";
import * as creditBalances from "@/app/api/customers/[customer_id]/credit-balances/route";
import * as chargePreview from "@/app/api/subscriptions/[subscription_id]/charge/preview/route";
import * as charge from "@/app/api/subscriptions/[subscription_id]/charge/route";
import * as updatePreview from "@/app/api/subscriptions/[subscription_id]/preview/route";
import * as subscriptionItem from "@/app/api/subscriptions/[subscription_id]/route";
import * as advance from "@/app/api/subscriptions/[subscription_id]/test-clock/advance/route";
import { query } from "../../db/sql.ts";
import { type ApiResult, call } from "./api.ts";
import { admin } from "./resource.ts";
import { subscribeAtCheckout } from "./subscriptions.ts";

type Entity = Record<string, any>;

export const DAY = 86_400_000;
export const MINUTE = 60_000;

const send = async (handler: any, method: string, path: string, id: string, body: unknown, key?: string | null) =>
  call(handler, method, path, {
    key: key === undefined ? await admin() : key,
    params: { subscription_id: id },
    body,
  });

export const patchSubscription = (id: string, body: unknown, key?: string | null): Promise<ApiResult> =>
  send(subscriptionItem.PATCH, "PATCH", `/subscriptions/${id}`, id, body, key);

export const previewUpdate = (id: string, body: unknown, key?: string | null): Promise<ApiResult> =>
  send(updatePreview.PATCH, "PATCH", `/subscriptions/${id}/preview`, id, body, key);

export const chargeSubscription = (id: string, body: unknown, key?: string | null): Promise<ApiResult> =>
  send(charge.POST, "POST", `/subscriptions/${id}/charge`, id, body, key);

export const previewCharge = (id: string, body: unknown, key?: string | null): Promise<ApiResult> =>
  send(chargePreview.POST, "POST", `/subscriptions/${id}/charge/preview`, id, body, key);

export async function getWith(id: string, query: string, key?: string | null): Promise<ApiResult> {
  return call(subscriptionItem.GET, "GET", `/subscriptions/${id}${query}`, {
    key: key === undefined ? await admin() : key,
    params: { subscription_id: id },
  });
}

/** Runs the subscription's engine to `to` on its test clock (200 expected). */
export async function advanceTo(id: string, to: Date): Promise<Entity> {
  const res = await send(advance.POST, "POST", `/subscriptions/${id}/test-clock/advance`, id, {
    to: to.toISOString(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/**
 * Sets the subscription's clock to `at` (later than real time), so that every request sees the same
 * "now": proration rates do not move between two requests of a test.
 */
export async function setClock(id: string, at: Date): Promise<void> {
  await query("UPDATE subscriptions SET clock_at = $2 WHERE id = $1", [id, at]);
}

export interface TxnRow {
  id: string;
  status: string;
  origin: string;
  billing_period_starts_at: Date | null;
  billing_period_ends_at: Date | null;
  details: Entity;
  payments: Entity[];
}

export const transactionsOf = (subscriptionId: string): Promise<TxnRow[]> =>
  query<TxnRow>(
    `SELECT id, status, origin, billing_period_starts_at, billing_period_ends_at, details, payments
       FROM transactions WHERE subscription_id = $1 ORDER BY id`,
    [subscriptionId],
  );

export async function lastTransaction(subscriptionId: string): Promise<TxnRow> {
  const txns = await transactionsOf(subscriptionId);
  return txns[txns.length - 1]!;
}

export async function creditBalance(customerId: string): Promise<Entity[]> {
  const res = await call(creditBalances.GET, "GET", `/customers/${customerId}/credit-balances`, {
    key: await admin(),
    params: { customer_id: customerId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export const pendingLines = (subscriptionId: string) =>
  query<{ price_id: string; quantity: number; proration: Entity | null; transaction_id: string | null }>(
    "SELECT price_id, quantity, proration, transaction_id FROM subscription_charges WHERE subscription_id = $1 ORDER BY id",
    [subscriptionId],
  );

/** The totals a preview and the billed transaction must share (payments change balance, fee, earnings). */
export function billedTotals(totals: Entity): Entity {
  const { balance: _b, fee: _f, earnings: _e, ...rest } = totals;
  return rest;
}

/** A transaction's details as a preview shows them: line items without IDs, totals without payments. */
export function asPreview(details: Entity): Entity {
  return {
    tax_rates_used: details.tax_rates_used,
    totals: billedTotals(details.totals),
    line_items: details.line_items.map(({ id: _id, ...line }: Entity) => line),
  };
}

/** The subscription fields a preview and the updated subscription must share. */
export function comparable(entity: Entity): Entity {
  const {
    id: _id,
    updated_at: _u,
    consent_requirements: _c,
    immediate_transaction: _i,
    next_transaction: _n,
    recurring_transaction_details: _r,
    update_summary: _s,
    ...rest
  } = entity;
  // Portal tokens in management_urls are made per answer (their issue time differs): compared without.
  const urls = rest.management_urls as Record<string, string | null> | null | undefined;
  const untokened = (url: string | null) => (url === null ? null : url.replace(/\?token=[^&]*$/, ""));
  return {
    ...rest,
    ...(urls
      ? {
          management_urls: {
            update_payment_method: untokened(urls.update_payment_method!),
            cancel: untokened(urls.cancel!),
          },
        }
      : {}),
    items: (entity.items as Entity[]).map(({ updated_at: _updated, ...item }) => item),
  };
}

/**
 * A subscription bought at checkout with its clock 10 days into its first period (a fixed "now"
 * for every request), and its first price's ID.
 */
export async function subscribed(options: Parameters<typeof subscribeAtCheckout>[0] = {}) {
  const bought = await subscribeAtCheckout(options);
  const at = new Date(Date.parse(bought.subscription.started_at) + 10 * DAY);
  await setClock(bought.subscription.id, at);
  return { ...bought, at, priceId: bought.subscription.items[0].price.id as string };
}
