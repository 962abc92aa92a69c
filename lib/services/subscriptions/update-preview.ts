/**
 * PATCH /subscriptions/{id}/preview: the update's plan (update-plan.ts) shown as the subscription
 * would be after it, with the transactions it bills; nothing is written.
 */
import { updateSummary } from "../../billing/proration.ts";
import { showsBillingPeriod, subscriptionItemStatus } from "../../billing/subscription-shape.ts";
import { pool } from "../../db/connection.ts";
import type { UpdateSubscriptionInput } from "../../schemas/subscription.ts";
import { rfc3339 } from "../../timestamps.ts";
import { managementUrls } from "../portal/links.ts";
import {
  apiPeriod,
  nextTransaction,
  previewShape,
  recurringDetails,
  storedRenewalState,
  summaryOf,
  type TransactionPreview,
} from "./preview.ts";
import { readSubscription, subscriptionJson } from "./store.ts";
import { keptItem, priceOf, productOf } from "./update-items.ts";
import { changeLines, planUpdate, type UpdatePlan } from "./update-plan.ts";

export async function previewUpdate(id: string, input: UpdateSubscriptionInput): Promise<Record<string, unknown>> {
  const on = pool();
  const sub = await readSubscription(on, id);
  const plan = await planUpdate(on, sub, input, false);
  const entity = (await subscriptionJson(on, id)).parse() as Record<string, any>;
  const shaped = await previewEntity(entity, plan);
  const lines = changeLines(plan);
  const state = await storedRenewalState(on, plan.after);
  const priced = plan.immediatePriced;
  const renewal = {
    sub: plan.after,
    items: (plan.items ?? plan.itemsBefore.map((row) => keptItem(row, row.quantity))).map((item) => ({
      price: priceOf(item),
      product: productOf(item),
      quantity: item.quantity,
    })),
    pending: plan.immediate ? state.pending : [...state.pending, ...lines],
    // What the immediate transaction takes from, or adds to, the balance before the renewal.
    credit: state.credit - (priced?.creditUsed ?? 0n) + (priced?.creditAdded ?? 0n),
  };
  const immediate: TransactionPreview | null =
    priced && plan.immediatePeriod
      ? { billing_period: apiPeriod(plan.immediatePeriod), details: priced.details, adjustments: [] }
      : null;
  return previewShape(shaped, {
    immediate_transaction: immediate,
    next_transaction: await nextTransaction(on, renewal),
    recurring_transaction_details: await recurringDetails(on, renewal),
    update_summary: priced
      ? summaryOf(priced.details, plan.after.currency_code)
      : plan.deferredPriced
        ? summaryOf(plan.deferredPriced.details, plan.after.currency_code)
        : updateSummary(0n, 0n, plan.after.currency_code),
  });
}

/** The subscription entity as the plan leaves it (what the update would answer). */
async function previewEntity(entity: Record<string, any>, plan: UpdatePlan): Promise<Record<string, unknown>> {
  const a = plan.after;
  const time = (date: Date | null) => rfc3339(date);
  const shown = showsBillingPeriod(a.status);
  const itemStatus = subscriptionItemStatus(a.status);
  let items = entity.items as Record<string, any>[];
  if (plan.items) {
    const byRow = new Map(plan.itemsBefore.map((row, index) => [row.id, items[index]]));
    items = plan.items.map((item) => {
      if (item.kept) {
        const json = { ...byRow.get(item.kept.id) };
        if (json.quantity !== item.quantity) json.updated_at = time(new Date());
        json.quantity = item.quantity;
        return json;
      }
      return {
        status: itemStatus,
        quantity: item.quantity,
        recurring: true,
        created_at: time(plan.at),
        updated_at: time(plan.at),
        previously_billed_at: plan.immediate ? time(plan.at) : null,
        next_billed_at: null,
        trial_dates: null,
        price: priceOf(item),
        product: productOf(item),
      };
    });
  }
  items = items.map((json) => ({
    ...json,
    next_billed_at: shown ? time(a.next_billed_at) : null,
    previously_billed_at: plan.itemsBilledFrom ? time(plan.itemsBilledFrom) : json.previously_billed_at,
    trial_dates:
      json.trial_dates && plan.before.status === "trialing"
        ? { starts_at: json.trial_dates.starts_at, ends_at: time(a.next_billed_at) }
        : json.trial_dates,
  }));
  return {
    ...entity,
    customer_id: a.customer_id,
    address_id: a.address_id,
    business_id: a.business_id,
    currency_code: a.currency_code,
    updated_at: time(new Date()),
    next_billed_at: time(a.next_billed_at),
    discount: a.discount_id
      ? { id: a.discount_id, starts_at: time(a.discount_starts_at), ends_at: time(a.discount_ends_at) }
      : null,
    collection_mode: a.collection_mode,
    billing_details: a.billing_details,
    current_billing_period:
      shown && a.current_period_starts_at && a.current_period_ends_at
        ? { starts_at: time(a.current_period_starts_at), ends_at: time(a.current_period_ends_at) }
        : null,
    billing_cycle: a.billing_cycle,
    scheduled_change: a.scheduled_change ? entity.scheduled_change : null,
    management_urls: managementUrls(a.id, a.collection_mode, null),
    items,
    custom_data: plan.customData !== undefined ? (plan.customData.value ?? null) : entity.custom_data,
  };
}
