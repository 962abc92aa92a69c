/**
 * The subscription of a story, in the API family's subscription shape, and the story's billing
 * periods. Client-safe (see common.ts).
 */
import { showsBillingPeriod, subscriptionItemStatus } from "../../billing/subscription-shape.ts";
import { type Cast, castBillingCycle, castCurrency, castTrial } from "./cast.ts";
import { addDuration, EXAMPLE_START, type Json } from "./common.ts";

const T0 = EXAMPLE_START;

export interface SubscriptionState {
  status: "active" | "trialing" | "past_due" | "paused" | "canceled";
  /** Index of the current billing period: 0 is the first (or the trial). */
  period: number;
  /** No current billing period (paused and canceled subscriptions). */
  noPeriod?: boolean;
  scheduledChange: { action: "pause" | "cancel" | "resume"; effective_at: string; resume_at: string | null } | null;
  pausedAt: string | null;
  canceledAt: string | null;
  updatedAt: string;
  /** subscription.created carries the transaction it was created from. */
  transactionId?: string;
}

/** Start and end of billing period `k` of the story (period 0 is the trial when there is one). */
export function billingPeriod(cast: Cast, k: number): { starts_at: string; ends_at: string } {
  const cycle = castBillingCycle(cast);
  const trial = castTrial(cast);
  if (trial) {
    const firstBilled = addDuration(T0, trial);
    if (k === 0) return { starts_at: T0, ends_at: firstBilled };
    return { starts_at: addDuration(firstBilled, cycle, k - 1), ends_at: addDuration(firstBilled, cycle, k) };
  }
  return { starts_at: addDuration(T0, cycle, k), ends_at: addDuration(T0, cycle, k + 1) };
}

/** The subscription of a story in `state`, in the API family's subscription shape. */
export function exampleSubscription(cast: Cast, state: SubscriptionState): Json {
  const period = billingPeriod(cast, state.period);
  const trial = castTrial(cast);
  const firstBilledAt = trial ? addDuration(T0, trial) : T0;
  const ended = state.noPeriod || !showsBillingPeriod(state.status);
  const nextBilledAt = ended ? null : period.ends_at;
  const previouslyBilledAt = state.period === 0 && trial ? null : period.starts_at;
  const itemStatus = subscriptionItemStatus(state.status);
  const recurring = cast.items.filter((item) => item.price.billing_cycle);
  const subscription: Json = {
    id: cast.subscriptionId,
    status: state.status,
    customer_id: cast.customer.id,
    address_id: cast.address.id,
    business_id: cast.business ? cast.business.id : null,
    currency_code: castCurrency(cast),
    created_at: T0,
    updated_at: state.updatedAt,
    started_at: T0,
    first_billed_at: firstBilledAt,
    next_billed_at: nextBilledAt,
    paused_at: state.pausedAt,
    canceled_at: state.canceledAt,
    discount: cast.discount ? { id: cast.discount.id, starts_at: T0, ends_at: null } : null,
    collection_mode: "automatic",
    billing_details: null,
    current_billing_period: ended ? null : period,
    billing_cycle: castBillingCycle(cast),
    scheduled_change: state.scheduledChange,
    management_urls: {
      update_payment_method: `https://customer-portal.example.com/subscriptions/${cast.subscriptionId}/update-payment-method`,
      cancel: `https://customer-portal.example.com/subscriptions/${cast.subscriptionId}/cancel`,
    },
    items: recurring.map((item) => ({
      status: itemStatus,
      quantity: item.quantity,
      recurring: true,
      created_at: T0,
      updated_at: state.updatedAt,
      previously_billed_at: previouslyBilledAt,
      next_billed_at: nextBilledAt,
      trial_dates: trial ? { starts_at: T0, ends_at: firstBilledAt } : null,
      price: item.price,
      product: item.product,
    })),
    custom_data: null,
    import_meta: null,
    consent_requirements: [],
  };
  if (state.transactionId) subscription.transaction_id = state.transactionId;
  return subscription;
}
