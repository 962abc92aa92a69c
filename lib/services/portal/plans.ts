/**
 * Plan changes in the customer portal (issue 26 item 7: monthly ↔ yearly): a customer may move a
 * subscription between the prices the merchant lists in Settings (`portal_plan_price_ids` of the
 * account settings), and nothing else.
 *
 * Rules (decisions; the API family's portal changes plans the merchant configured too):
 * - Offered for an active subscription with one item whose price is on the list, without a
 *   scheduled change (a scheduled cancel or pause would be undone by surprise), on automatic
 *   collection (the change is charged to the saved card now); the other listed prices that are
 *   active, recurring and priced in the subscription's currency are the choices.
 * - The quantity stays; the change is billed `prorated_immediately` (the family's rule for a
 *   billing-cycle swap, and the fair one for a plan change): the new price for the rest of the
 *   period (or, for a new cycle, a new period from now) less the unused rest of the old one,
 *   charged now with `prevent_change` (a declined card changes nothing).
 * - The preview and the change are the API's own PATCH /subscriptions/{id}/preview and PATCH (the
 *   same plan: the amount shown is the amount charged), after checking that the subscription is
 *   the customer's and the price is one of the choices (else "not found" / 400 naming price_id).
 */
import { unitPriceFor } from "../../billing/totals.ts";
import { pool } from "../../db/connection.ts";
import { query } from "../../db/sql.ts";
import { invalidField, notFound } from "../../errors.ts";
import type { UpdateSubscriptionInput } from "../../schemas/subscription.ts";
import { getAccountSettings } from "../account-settings.ts";
import { subscriptionCountry } from "../subscriptions/billing.ts";
import { updateSubscription } from "../subscriptions/update.ts";
import { previewUpdate } from "../subscriptions/update-preview.ts";

/** A plan the customer may switch to, as the portal shows it (customer-facing names only). */
export interface PlanOption {
  price_id: string;
  product_name: string;
  /** The price's customer-facing name, or null (the portal then names the cycle). */
  price_name: string | null;
  billing_cycle: { interval: string; frequency: number };
  /** The unit price for the customer's country, in the subscription's currency (minor units). */
  unit_amount: string;
  currency_code: string;
}

export interface PlanChoices {
  /** The subscription's current plan (its one item). */
  current: { price_id: string; quantity: number };
  options: PlanOption[];
}

interface SubRow {
  id: string;
  status: string;
  collection_mode: string;
  currency_code: string;
  address_id: string;
  scheduled: boolean;
  items: { price_id: string; quantity: number }[];
}

/** The plans subscription `subscriptionId` of the customer may switch to, or null when none. */
export async function portalPlanChoices(customerId: string, subscriptionId: string): Promise<PlanChoices | null> {
  const [sub] = await query<SubRow>(
    `SELECT s.id, s.status, s.collection_mode, s.currency_code, s.address_id, s.scheduled_change IS NOT NULL AS scheduled,
            coalesce((SELECT json_agg(json_build_object('price_id', i.price_id, 'quantity', i.quantity) ORDER BY i.position)
                        FROM subscription_items i WHERE i.subscription_id = s.id), '[]') AS items
       FROM subscriptions s WHERE s.id = $1 AND s.customer_id = $2`,
    [subscriptionId, customerId],
  );
  if (!sub) throw notFound(subscriptionId);
  const allowed = (await getAccountSettings()).portal_plan_price_ids;
  if (allowed.length === 0 || sub.status !== "active" || sub.scheduled || sub.collection_mode !== "automatic") {
    return null;
  }
  const [current] = sub.items;
  if (sub.items.length !== 1 || current === undefined || !allowed.includes(current.price_id)) return null;
  const country = await subscriptionCountry(pool(), sub.address_id);
  const rows = await query<{
    id: string;
    product_name: string;
    name: string | null;
    interval: string;
    frequency: number;
    unit_price: { amount: string; currency_code: string };
    unit_price_overrides: { country_codes: string[]; unit_price: { amount: string; currency_code: string } }[];
  }>(
    `SELECT p.id, pr.name AS product_name, p.name, p.billing_cycle_interval AS interval, p.billing_cycle_frequency AS frequency,
            json_build_object('amount', p.unit_price_amount::text, 'currency_code', p.unit_price_currency) AS unit_price,
            p.unit_price_overrides
       FROM prices p JOIN products pr ON pr.id = p.product_id
      WHERE p.id = ANY($1) AND p.id <> $2 AND p.status = 'active' AND pr.status = 'active'
        AND p.billing_cycle_interval IS NOT NULL`,
    [allowed, current.price_id],
  );
  const options: PlanOption[] = [];
  for (const row of rows) {
    const unit = unitPriceFor(
      {
        id: row.id,
        product_id: "",
        tax_mode: "account_setting",
        unit_price: row.unit_price,
        unit_price_overrides: row.unit_price_overrides,
      },
      country,
      sub.currency_code,
    );
    if (unit.currency_code !== sub.currency_code) continue;
    options.push({
      price_id: row.id,
      product_name: row.product_name,
      price_name: row.name,
      billing_cycle: { interval: row.interval, frequency: row.frequency },
      unit_amount: unit.amount,
      currency_code: unit.currency_code,
    });
  }
  // In the merchant's order.
  options.sort((a, b) => allowed.indexOf(a.price_id) - allowed.indexOf(b.price_id));
  return options.length > 0 ? { current, options } : null;
}

/** The PATCH body of switching to `priceId`, once it is checked to be one of the choices. */
async function changeBody(
  customerId: string,
  subscriptionId: string,
  priceId: string,
): Promise<UpdateSubscriptionInput> {
  const choices = await portalPlanChoices(customerId, subscriptionId);
  if (!choices?.options.some((option) => option.price_id === priceId)) {
    throw invalidField("price_id", "is not a plan this subscription can switch to");
  }
  return {
    items: [{ price_id: priceId, quantity: choices.current.quantity }],
    proration_billing_mode: "prorated_immediately",
    on_payment_failure: "prevent_change",
  };
}

/** What switching to `priceId` charges now and next (the API's update preview). */
export async function portalPlanPreview(customerId: string, subscriptionId: string, priceId: string) {
  const preview = await previewUpdate(subscriptionId, await changeBody(customerId, subscriptionId, priceId));
  const now = preview.immediate_transaction as { billing_period: { starts_at: string }; details: any } | null;
  const next = preview.next_transaction as { billing_period: { starts_at: string }; details: any } | null;
  return {
    charged_now: now ? { amount: now.details.totals.grand_total as string, at: now.billing_period.starts_at } : null,
    next_payment: next
      ? { amount: next.details.totals.grand_total as string, at: next.billing_period.starts_at }
      : null,
    currency_code: preview.currency_code as string,
  };
}

/** Switches the subscription to `priceId`, charged as previewed. */
export async function portalPlanChange(customerId: string, subscriptionId: string, priceId: string) {
  const json = await updateSubscription(subscriptionId, await changeBody(customerId, subscriptionId, priceId));
  const sub = json.parse();
  return { id: sub.id, status: sub.status, next_billed_at: sub.next_billed_at };
}
