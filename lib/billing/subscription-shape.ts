/**
 * What a subscription's status shows in its API shape. The entity's SQL (lib/db/entities/
 * subscription.ts) is generated from these rules, and the update's preview and the simulator's
 * examples call them: one rule for every copy of the shape.
 *
 * Decision (the API family's schema: "inactive: set when the related subscription is paused"):
 * items are `inactive` while the subscription is paused, `trialing` while it is, else `active`.
 */
import type { SubscriptionStatus } from "./subscription-states.ts";

export type SubscriptionItemStatus = "active" | "inactive" | "trialing";

/** The status of every item of a subscription in `status`. */
export function subscriptionItemStatus(status: SubscriptionStatus): SubscriptionItemStatus {
  if (status === "paused") return "inactive";
  if (status === "trialing") return "trialing";
  return "active";
}

/**
 * Statuses whose subscription shows no billing period: `current_billing_period` and the items'
 * `next_billed_at` are null (the period is kept while paused, as a resume may continue it).
 */
export const STATUSES_WITHOUT_PERIOD: readonly SubscriptionStatus[] = ["paused", "canceled"];

export function showsBillingPeriod(status: SubscriptionStatus): boolean {
  return !STATUSES_WITHOUT_PERIOD.includes(status);
}
