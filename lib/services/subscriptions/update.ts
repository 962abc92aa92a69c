/**
 * PATCH /subscriptions/{id} and PATCH /subscriptions/{id}/preview: the API family's
 * subscription update, its proration modes and its update summary.
 *
 * One function, `planUpdate` (update-plan.ts), turns a request and the subscription into a plan:
 * the subscription as it will be, its new items, the lines of the change (billed now, or waiting for the next
 * renewal), priced by the engine that bills them. The update applies the plan; the preview shows it
 * and writes nothing. Both refuse the same requests with the same errors, and the preview's
 * `immediate_transaction` is what the update's transaction is (both price the lines with
 * preview.ts priceLines / billing.ts billSubscription: the same engine, discount and credit).
 *
 * Rules and decisions (where the sources are silent, what a merchant would expect):
 * - `items` replaces the whole list (omitted → removed). An item whose price is already on the
 *   subscription keeps its price and product as they were when added (the catalogue may have moved
 *   on; an archived price stays billable for existing customers) and its quantity unless sent; a new
 *   price needs a quantity (subscription_quantity_missing_for_new_items) and is resolved as a
 *   transaction's items are (catalogue prices, or non-catalogue prices created as `custom` when the
 *   update is applied). Recurring prices only, all on one billing cycle.
 * - `proration_billing_mode` is required when the items or `next_billed_at` actually change (sending
 *   the same items back with other fields needs none). The modes a change allows are
 *   lib/billing/proration.ts allowedModes; trialing and paused subscriptions take do_not_bill only.
 * - prorated_* bills each added or increased quantity for the rest of the period at the proration
 *   rate and credits each removed or reduced one (negative lines); full_* bills the whole price of
 *   what is added and credits nothing. *_immediately: one transaction now (origin
 *   subscription_update, billing_period = now → the end of the period after the change), collected
 *   now (immediate-charges.ts billNow: on_payment_failure, limits, minimum charge); credits beyond
 *   the charges go to the customer's credit balance. *_next_billing_period: the lines wait in
 *   `subscription_charges` for the next renewal. do_not_bill: nothing.
 * - A billing-cycle swap billed now starts a new period at the change (anchor = now); with
 *   do_not_bill the current period runs out and the renewal re-anchors on the new cycle.
 * - `next_billed_at` (≥ 30 minutes ahead, on the subscription's clock) re-anchors the billing
 *   periods at the new date (it becomes the current period's end); for a trial it moves the trial's
 *   end. A later date bills the extra time, a sooner one credits it (proration.ts
 *   nextBilledAtChangeLines), after any item change, with the items after it.
 * - Changes that bill (a mode other than do_not_bill with items or next_billed_at changing) are
 *   refused within 30 minutes of the renewal, or once it is due (409 subscription_locked_renewal):
 *   the renewal is about to bill the items as they are.
 * - `discount`: {id, effective_from} sets it (an expired discount may be applied to a subscription,
 *   per the spec; an archived or used-up one may not; applying a new one counts a redemption),
 *   null removes it. `immediately`: from now (an immediate transaction in the same request uses it);
 *   `next_billing_period`: from the next renewal. It lasts one billed period without `recur`, N
 *   with `maximum_recurring_intervals` N, else forever — counted from the next renewal.
 * - `customer_id` changes need the new customer's address (and business, or business_id null) and
 *   drop the saved card: a change billed now then needs a card (400
 *   subscription_missing_payment_method_cannot_update), unless it charges nothing.
 * - `collection_mode` manual needs billing_details and USD, EUR or GBP, and drops the saved card;
 *   back to automatic clears billing_details unless sent (the customer adds a card at the
 *   update-payment-method checkout).
 * - `scheduled_change: null` removes a scheduled pause, cancel or resume: the subscription renews at
 *   its period's end again (a paused one stays paused, open-ended).
 * - Events: subscription.updated, then the transaction's when billed now (and
 *   subscription.past_due when apply_change leaves its charge past due).
 */
import type pg from "pg";
import { query, type RawJson, storableJson } from "../../db/sql.ts";
import { newId } from "../../ids.ts";
import type { Subscription, UpdateSubscriptionInput } from "../../schemas/subscription.ts";
import { countRedemption } from "../transactions/discounts.ts";
import { saveNewPrices } from "../transactions/items.ts";
import { billNow } from "./immediate-charges.ts";
import { subscriptionOperation } from "./operation.ts";
import { addPendingLines } from "./stops.ts";
import { emitSubscriptionEvents } from "./store.ts";
import { changeLines, planUpdate, type UpdatePlan } from "./update-plan.ts";

export async function updateSubscription(id: string, input: UpdateSubscriptionInput): Promise<RawJson<Subscription>> {
  return subscriptionOperation(id, async (client, sub) => {
    const plan = await planUpdate(client, sub, input, true);
    const { after, at } = plan;
    const newItems = (plan.items ?? []).flatMap((item) => (item.added ? [item.added] : []));
    await saveNewPrices(newItems, client);
    await writeSubscription(client, plan);
    if (plan.items) await writeItems(client, plan);
    await trialDates(client, plan);
    if (plan.redeemedDiscountId) await countRedemption(client, plan.redeemedDiscountId);
    const lines = changeLines(plan);
    if (!plan.immediate && lines.length > 0) await addPendingLines(client, id, lines);
    await emitSubscriptionEvents(client, id, ["subscription.updated"]);
    if (plan.immediate && plan.immediatePeriod) {
      await billNow(client, after, {
        lines,
        origin: "subscription_update",
        period: plan.immediatePeriod,
        at,
        discount: plan.immediateDiscount,
        onPaymentFailure: plan.onPaymentFailure,
      });
    }
  });
}

async function writeSubscription(client: pg.PoolClient, plan: UpdatePlan): Promise<void> {
  const a = plan.after;
  await query(
    `UPDATE subscriptions SET customer_id = $2, address_id = $3, business_id = $4, currency_code = $5, collection_mode = $6,
            billing_details = $7::json, billing_cycle_interval = $8, billing_cycle_frequency = $9, billing_anchor_at = $10,
            current_period_starts_at = $11, current_period_ends_at = $12, next_billed_at = $13, discount_id = $14,
            discount_starts_at = $15, discount_ends_at = $16, scheduled_change = $17::json, payment_method_id = $18,
            custom_data = CASE WHEN $19::boolean THEN $20::jsonb ELSE custom_data END
      WHERE id = $1`,
    [
      a.id,
      a.customer_id,
      a.address_id,
      a.business_id,
      a.currency_code,
      a.collection_mode,
      a.billing_details === null ? null : storableJson(a.billing_details),
      a.billing_cycle.interval,
      a.billing_cycle.frequency,
      a.billing_anchor_at,
      a.current_period_starts_at,
      a.current_period_ends_at,
      a.next_billed_at,
      a.discount_id,
      a.discount_starts_at,
      a.discount_ends_at,
      a.scheduled_change === null ? null : storableJson(a.scheduled_change),
      a.payment_method_id,
      plan.customData !== undefined,
      plan.customData?.value == null ? null : storableJson(plan.customData.value),
    ],
    client,
  );
}

/** Replaces the subscription's items with the plan's, keeping the rows (and history) of kept prices. */
async function writeItems(client: pg.PoolClient, plan: UpdatePlan): Promise<void> {
  const items = plan.items ?? [];
  const id = plan.after.id;
  const kept = items.flatMap((item, position) => (item.kept ? [{ id: item.kept.id, position, q: item.quantity }] : []));
  // Positions are unique per subscription: move the old ones out of the way first.
  await query("UPDATE subscription_items SET position = -1 - position WHERE subscription_id = $1", [id], client);
  await query(
    "DELETE FROM subscription_items WHERE subscription_id = $1 AND NOT (id = ANY($2::text[]))",
    [id, kept.map((k) => k.id)],
    client,
  );
  await query(
    `UPDATE subscription_items i SET position = x.position, quantity = x.quantity,
            updated_at = CASE WHEN i.quantity <> x.quantity THEN now() ELSE i.updated_at END
       FROM unnest($1::text[], $2::int[], $3::int[]) AS x(id, position, quantity) WHERE i.id = x.id`,
    [kept.map((k) => k.id), kept.map((k) => k.position), kept.map((k) => k.q)],
    client,
  );
  const added = items.flatMap((item, position) => (item.added ? [{ item: item.added, position }] : []));
  const billedNow = plan.immediate ? plan.at : null;
  if (added.length > 0) {
    await query(
      `INSERT INTO subscription_items (id, subscription_id, position, price_id, status, quantity, price, product,
         previously_billed_at, created_at, updated_at)
       SELECT x.id, $1, x.position, x.price_id, $2, x.quantity, x.price::json, x.product::json, $3, $4, $4
         FROM unnest($5::text[], $6::int[], $7::text[], $8::int[], $9::text[], $10::text[])
           AS x(id, position, price_id, quantity, price, product)`,
      [
        id,
        plan.after.status,
        billedNow,
        plan.at,
        added.map(() => newId("subitm")),
        added.map((a) => a.position),
        added.map((a) => a.item.price.id),
        added.map((a) => a.item.quantity),
        added.map((a) => storableJson(a.item.price)),
        added.map((a) => storableJson(a.item.product)),
      ],
      client,
    );
  }
  if (plan.itemsBilledFrom) {
    await query(
      "UPDATE subscription_items SET previously_billed_at = $2 WHERE subscription_id = $1",
      [id, plan.itemsBilledFrom],
      client,
    );
  }
}

/** A trial's end moved with next_billed_at moves the items' trial dates too. */
async function trialDates(client: pg.PoolClient, plan: UpdatePlan): Promise<void> {
  if (
    plan.before.status !== "trialing" ||
    plan.after.next_billed_at?.getTime() === plan.before.next_billed_at?.getTime()
  ) {
    return;
  }
  await query(
    "UPDATE subscription_items SET trial_ends_at = $2, updated_at = now() WHERE subscription_id = $1 AND trial_ends_at IS NOT NULL",
    [plan.after.id, plan.after.next_billed_at],
    client,
  );
}

// ---------------------------------------------------------------------------------------------
