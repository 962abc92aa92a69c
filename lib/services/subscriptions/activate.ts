/**
 * POST /subscriptions/{subscription_id}/activate: ends a trial now and charges
 * the first period.
 *
 * Trialing, automatically-collected subscriptions only, with a saved card and no scheduled pause or
 * cancel (the state machine's codes). The trial ends now (items' `trial_dates.ends_at` = now), the
 * first billing period starts now (the anchor: renewals follow from it), `first_billed_at` = now,
 * status `active`: `subscription.updated`, `subscription.activated`, then the first period's
 * transaction (origin subscription_recurring, lifecycle.ts billPeriod) charged to the saved card
 * at once, with its own events.
 *
 * Decision (declined-charge-changes-nothing): a declined charge refuses the whole request — 400 `subscription_payment_declined`, and
 * nothing changes (the database transaction rolls back: no transaction, no failed payment, no
 * event; the subscription stays trialing until its trial ends as planned). The caller asked for a
 * charge now: an activation that left a past_due subscription behind would be worse than the
 * trial it replaced (the API family does the same for immediate charges with prevent_change).
 *
 * With a method held by Stripe, the charge is made after this commits (never inside the database
 * transaction): the activation commits with the charge recorded, and a decline undoes it — the
 * subscription's rows as they were, the transaction canceled — before the same 400 is answered
 * (charge-outcomes.ts, lib/payments/README.md).
 *
 * A recurring discount limited to N periods ends N periods after the new anchor (it ended N periods
 * after the trial's end).
 *
 * POST /subscriptions/{subscription_id}/activate/preview (ours; the API family has none): what the
 * activation charges now, from the same plan (`planActivation`: the same refusals, the new dates
 * and discount) priced as billPeriod bills it (the items and waiting lines, the first period's
 * discount, the credit balance), so the dashboard shows the amount that is then charged.
 */
import { addInterval } from "../../billing/billing-dates.ts";
import { updateSummary } from "../../billing/proration.ts";
import { periodIndexAt, periodStart } from "../../billing/subscription-dates.ts";
import { refusal } from "../../billing/subscription-states.ts";
import { pool } from "../../db/connection.ts";
import { type Queryable, query } from "../../db/sql.ts";
import { ApiError } from "../../errors.ts";
import { rfc3339 } from "../../timestamps.ts";
import { savedCard } from "../payment-methods.ts";
import { periodDiscount, subscriptionNow } from "./billing.ts";
import { changePurpose } from "./charge-outcomes.ts";
import { billPeriod } from "./lifecycle.ts";
import { activateTrialNow } from "./moves.ts";
import { refuse, subscriptionOperation } from "./operation.ts";
import {
  apiPeriod,
  nextTransaction,
  previewShape,
  priceLines,
  recurringDetails,
  storedRenewalState,
  summaryOf,
} from "./preview.ts";
import { readSubscription, type SubscriptionRow, subscriptionJson } from "./store.ts";

/** The activation of `sub` at `now`: refused as the state machine says, else its new dates. */
async function planActivation(on: Queryable, sub: SubscriptionRow, now: Date) {
  refuse(
    refusal("activate", sub, {
      has_payment_method: (await savedCard(on, sub.payment_method_id)) !== null,
    }),
  );
  const cycle = sub.billing_cycle;
  const endsAt = addInterval(now, cycle.interval, cycle.frequency);
  let discountEndsAt = sub.discount_ends_at;
  if (discountEndsAt && discountEndsAt.getTime() > sub.billing_anchor_at.getTime()) {
    discountEndsAt = periodStart(now, cycle, periodIndexAt(sub.billing_anchor_at, cycle, discountEndsAt));
  }
  const after: SubscriptionRow = {
    ...sub,
    status: "active",
    billing_anchor_at: now,
    first_billed_at: now,
    current_period_starts_at: now,
    current_period_ends_at: endsAt,
    next_billed_at: endsAt,
    discount_ends_at: discountEndsAt,
  };
  return { endsAt, discountEndsAt, after };
}

export function activateSubscription(id: string) {
  return subscriptionOperation(id, async (client, sub, now) => {
    const { endsAt, discountEndsAt } = await planActivation(client, sub, now);
    await query(
      `UPDATE subscription_items SET previously_billed_at = $2, updated_at = now(),
              trial_ends_at = CASE WHEN trial_ends_at IS NOT NULL AND trial_ends_at > $2 THEN $2 ELSE trial_ends_at END
        WHERE subscription_id = $1`,
      [sub.id, now],
      client,
    );
    await activateTrialNow(client, sub.id, { startsAt: now, endsAt, discountEndsAt });
    const transactionId = await billPeriod(
      client,
      { ...sub, status: "active", billing_anchor_at: now, discount_ends_at: discountEndsAt },
      { starts_at: now, ends_at: endsAt },
      now,
      changePurpose(sub.id, now, "activate"),
    );
    const [billed] = await query<{ status: string; pending: boolean }>(
      `SELECT status, EXISTS (SELECT 1 FROM payment_attempts a WHERE a.transaction_id = t.id AND a.settled_at IS NULL) AS pending
         FROM transactions t WHERE id = $1`,
      [transactionId],
      client,
    );
    // Through Stripe the charge is made once this commits; a decline then undoes the activation
    // (charge-outcomes.ts `change`) and the request answers the same 400.
    if (billed?.status !== "completed" && !billed?.pending) {
      throw new ApiError(
        "subscription_payment_declined",
        "The subscription's saved payment method was declined for the first period's charge, so the subscription was not activated and nothing changed: it stays in trial until its trial ends. The customer can update the payment method and you can try again.",
      );
    }
  });
}

/** The preview of activating now (see the top of this file). */
export async function previewActivation(id: string): Promise<Record<string, unknown>> {
  const on = pool();
  const sub = await readSubscription(on, id);
  const now = subscriptionNow(sub);
  const { endsAt, after } = await planActivation(on, sub, now);
  const state = await storedRenewalState(on, sub);
  const period = { starts_at: now, ends_at: endsAt };
  const priced = await priceLines(
    on,
    after,
    [...state.items, ...state.pending],
    await periodDiscount(on, after, now),
    state.credit,
  );
  const renewal = {
    sub: after,
    items: state.items,
    pending: [],
    credit: state.credit - priced.creditUsed + priced.creditAdded,
  };
  const entity = (await subscriptionJson(on, id)).parse() as Record<string, any>;
  const time = (date: Date) => rfc3339(date);
  const shaped = {
    ...entity,
    status: "active",
    first_billed_at: time(now),
    next_billed_at: time(endsAt),
    current_billing_period: apiPeriod(period),
    items: (entity.items as Record<string, any>[]).map((item) => ({
      ...item,
      status: "active",
      previously_billed_at: time(now),
      next_billed_at: time(endsAt),
      trial_dates: item.trial_dates ? { ...item.trial_dates, ends_at: time(now) } : null,
    })),
  };
  return previewShape(shaped, {
    immediate_transaction: { billing_period: apiPeriod(period), details: priced.details, adjustments: [] },
    next_transaction: await nextTransaction(on, renewal),
    recurring_transaction_details: await recurringDetails(on, renewal),
    update_summary: priced.details.line_items.length
      ? summaryOf(priced.details, sub.currency_code)
      : updateSummary(0n, 0n, sub.currency_code),
  });
}
