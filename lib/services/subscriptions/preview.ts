/**
 * Previews of what a subscription bills (the API family's previews), computed by the same totals engine
 * and from the same inputs as the transactions that bill it (lib/services/subscriptions/billing.ts
 * billSubscription), so that a preview equals what is later charged:
 * - `next_transaction`: the next renewal (lifecycle.ts billPeriod) — the items, the lines waiting
 *   for it (`subscription_charges`: prorated changes and one-time charges billed on the next
 *   period), the discount of that period and the customer's credit balance, over the period the
 *   engine will bill (engine.ts renewalPeriod). Null when nothing renews: canceled, paused (unless
 *   a resume that starts a new period is scheduled: its transaction), or a pause or cancel
 *   scheduled (the spec).
 * - `recurring_transaction_details`: the plain renewal, the items alone with the discount of the
 *   next period: what the subscription costs each period, without one-off lines and credit.
 * - the update and charge previews (update-preview.ts, charge.ts) add `immediate_transaction` (the
 *   transaction billed now, null when nothing is) and `update_summary`.
 *
 * Decisions:
 * - The customer's credit balance counts in the previews as it will when billed (issue
 *   paddle-node-sdk#106: previews that ignore it disagree with the charge): `details.totals.credit`
 *   and `balance` show it. An update's preview counts the credit its own immediate transaction uses
 *   or adds before pricing the next renewal.
 * - `include` is offered on GET /subscriptions/{id} only, as in the API family (its list takes no
 *   `include`): each preview costs a few queries per subscription.
 * - `adjustments` is always `[]`: credits of a change are negative lines on the transaction
 *   (decision: credits-as-negative-lines), not adjustments of earlier transactions.
 */

import { addInterval } from "../../billing/billing-dates.ts";
import { creditTaken } from "../../billing/payments.ts";
import { updateSummaryFromLineItems } from "../../billing/proration.ts";
import { pool } from "../../db/connection.ts";
import { type Queryable, query, RawJson } from "../../db/sql.ts";
import { toJsonText } from "../../json.ts";
import type { Subscription, SubscriptionInclude } from "../../schemas/subscription.ts";
import type { TransactionDetails } from "../../schemas/transaction.ts";
import { rfc3339 } from "../../timestamps.ts";
import { taxContext, transactionDetails } from "../transactions/details.ts";
import type { DiscountRef } from "../transactions/references.ts";
import { type BillLine, lineItems, periodDiscount, subscriptionCountry } from "./billing.ts";
import { renewalPeriod } from "./engine.ts";
import { periodLines } from "./lifecycle.ts";
import { readSubscription, type SubscriptionRow } from "./store.ts";

export interface ApiPeriod {
  starts_at: string;
  ends_at: string;
}

export function apiPeriod(period: { starts_at: Date; ends_at: Date }): ApiPeriod {
  return { starts_at: rfc3339(period.starts_at), ends_at: rfc3339(period.ends_at) };
}

type LineItem = Omit<TransactionDetails["line_items"][number], "id">;

/** A transaction's `details` as previews show them (the API family's TransactionDetailsPreview). */
export interface PreviewDetails {
  tax_rates_used: TransactionDetails["tax_rates_used"];
  totals: TransactionDetails["totals"];
  line_items: LineItem[];
}

/** A previewed transaction (`next_transaction`, `immediate_transaction`). */
export interface TransactionPreview {
  billing_period: ApiPeriod;
  details: PreviewDetails;
  adjustments: never[];
}

/** Priced lines, and what they do to the customer's credit balance. */
export interface Priced {
  details: PreviewDetails;
  /** Credit taken from the balance (`totals.credit`). */
  creditUsed: bigint;
  /** Credit added to the balance (`totals.credit_to_balance`). */
  creditAdded: bigint;
  /** What is left to collect (`totals.balance`). */
  balance: bigint;
}

/** The customer's available credit balance in `currency`. */
export async function availableCredit(on: Queryable, customerId: string, currency: string): Promise<bigint> {
  const [row] = await query<{ available: string }>(
    "SELECT available::text FROM credit_balances WHERE customer_id = $1 AND currency_code = $2",
    [customerId, currency],
    on,
  );
  return row ? BigInt(row.available) : 0n;
}

/**
 * `lines` priced as billSubscription prices them for `sub` (its address's tax, its currency), with
 * `discount`, paid first from `credit` (the customer's available balance): the same engine, the
 * same order (a positive total takes min(credit, total), a negative one goes to the balance).
 */
export async function priceLines(
  on: Queryable,
  sub: Pick<SubscriptionRow, "address_id" | "currency_code">,
  lines: readonly BillLine[],
  discount: DiscountRef | null,
  credit: bigint,
): Promise<Priced> {
  const items = lineItems(lines);
  const pricing = {
    currency: sub.currency_code,
    tax: await taxContext(await subscriptionCountry(on, sub.address_id), on),
    discount,
    ignoreTrials: true,
  };
  let details = transactionDetails(items, pricing);
  const total = BigInt(details.totals.total);
  const used = creditTaken(credit, total);
  if (used > 0n) details = transactionDetails(items, { ...pricing, creditBalance: used });
  return {
    details: {
      tax_rates_used: details.tax_rates_used,
      totals: details.totals,
      line_items: details.line_items.map(({ id: _id, ...line }) => line),
    },
    creditUsed: used,
    creditAdded: BigInt(details.totals.credit_to_balance),
    balance: BigInt(details.totals.balance),
  };
}

/** The update summary of a change's own lines (the API family's update summary), priced. */
export function summaryOf(details: PreviewDetails | null, currency: string) {
  return updateSummaryFromLineItems(details?.line_items ?? [], currency);
}

/** What the next renewal of a subscription bills, as the engine will find it. */
export interface RenewalState {
  sub: SubscriptionRow;
  /** The recurring items' lines. */
  items: readonly BillLine[];
  /** Lines waiting for the next transaction (subscription_charges). */
  pending: readonly BillLine[];
  /** The customer's available credit when the renewal comes. */
  credit: bigint;
}

/** The period the next transaction bills, or null when nothing renews (see the top of this file). */
export function nextPeriod(sub: SubscriptionRow): { starts_at: Date; ends_at: Date } | null {
  if (sub.status === "canceled") return null;
  const change = sub.scheduled_change;
  if (sub.status === "paused") {
    if (change?.action !== "resume" || change.on_resume === "continue_existing_billing_period") return null;
    const at = new Date(change.effective_at);
    return { starts_at: at, ends_at: addInterval(at, sub.billing_cycle.interval, sub.billing_cycle.frequency) };
  }
  if (change?.action === "pause" || change?.action === "cancel") return null;
  if (!sub.next_billed_at) return null;
  const { starts_at, ends_at } = renewalPeriod(sub, sub.next_billed_at);
  return { starts_at, ends_at };
}

/** `next_transaction`: the next renewal, priced (null when nothing renews). */
export async function nextTransaction(on: Queryable, state: RenewalState): Promise<TransactionPreview | null> {
  const period = nextPeriod(state.sub);
  if (!period) return null;
  const priced = await priceLines(
    on,
    state.sub,
    [...state.items, ...state.pending],
    await periodDiscount(on, state.sub, period.starts_at),
    state.credit,
  );
  return { billing_period: apiPeriod(period), details: priced.details, adjustments: [] };
}

/** `recurring_transaction_details`: the items alone, with the discount of the next period. */
export async function recurringDetails(on: Queryable, state: RenewalState): Promise<PreviewDetails> {
  const start = nextPeriod(state.sub)?.starts_at ?? state.sub.next_billed_at ?? state.sub.current_period_ends_at;
  const discount = start ? await periodDiscount(on, state.sub, start) : null;
  return (await priceLines(on, state.sub, state.items, discount, 0n)).details;
}

/** The renewal state of a stored subscription, as it is now. */
export async function storedRenewalState(on: Queryable, sub: SubscriptionRow): Promise<RenewalState> {
  const { lines, pendingIds } = await periodLines(on, sub.id, false);
  const itemCount = lines.length - pendingIds.length;
  return {
    sub,
    items: lines.slice(0, itemCount),
    pending: lines.slice(itemCount),
    credit: await availableCredit(on, sub.customer_id, sub.currency_code),
  };
}

/**
 * A preview's answer (the API family's SubscriptionPreview): the subscription as it would be,
 * without `id`, then the previews.
 */
export function previewShape(
  entity: Record<string, unknown>,
  previews: {
    immediate_transaction: TransactionPreview | null;
    next_transaction: TransactionPreview | null;
    recurring_transaction_details: PreviewDetails;
    update_summary: ReturnType<typeof summaryOf>;
  },
): Record<string, unknown> {
  return {
    status: entity.status,
    customer_id: entity.customer_id,
    address_id: entity.address_id,
    business_id: entity.business_id,
    currency_code: entity.currency_code,
    created_at: entity.created_at,
    updated_at: entity.updated_at,
    started_at: entity.started_at,
    first_billed_at: entity.first_billed_at,
    next_billed_at: entity.next_billed_at,
    paused_at: entity.paused_at,
    canceled_at: entity.canceled_at,
    discount: entity.discount,
    collection_mode: entity.collection_mode,
    billing_details: entity.billing_details,
    current_billing_period: entity.current_billing_period,
    billing_cycle: entity.billing_cycle,
    scheduled_change: entity.scheduled_change,
    management_urls: entity.management_urls,
    items: entity.items,
    custom_data: entity.custom_data,
    immediate_transaction: previews.immediate_transaction,
    next_transaction: previews.next_transaction,
    recurring_transaction_details: previews.recurring_transaction_details,
    update_summary: previews.update_summary,
    import_meta: entity.import_meta,
  };
}

/** GET /subscriptions/{id}?include=…: adds the previews asked for (get.ts). */
export async function includePreviews(
  json: RawJson<Subscription>,
  include: readonly SubscriptionInclude[],
): Promise<RawJson<Subscription>> {
  const entity = json.parse() as Record<string, unknown>;
  const on = pool();
  const sub = await readSubscription(on, entity.id as string);
  const state = await storedRenewalState(on, sub);
  if (include.includes("next_transaction")) entity.next_transaction = await nextTransaction(on, state);
  if (include.includes("recurring_transaction_details")) {
    entity.recurring_transaction_details = await recurringDetails(on, state);
  }
  return new RawJson(toJsonText(entity));
}
