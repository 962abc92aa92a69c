/**
 * What may be done to a subscription in each state, in one place for the API (the services refuse
 * with these codes) and the dashboard (which offers only allowed actions). Codes and messages are
 * the API family's (its error pages, errors/subscriptions/<code>, and the Go SDK's list); the
 * details say what to do instead. Every refusal here is a 400 `request_error`.
 *
 * The choices, action by action (the API family is silent or inconsistent on some; where it is,
 * the choice is what a merchant would expect, written down at the rule):
 *
 * update (PATCH) — depends on the fields the request sets (`context.fields`):
 *   canceled   refused, every field (subscription_update_when_canceled): a canceled subscription
 *              is terminal, a record of what was sold.
 *   past_due   refused (subscription_update_when_past_due), except `custom_data` and removing a
 *              scheduled change: merchants tag accounts and take back a scheduled cancel during
 *              dunning; anything that bills waits until the subscription is paid.
 *   paused     only `items` (with do_not_bill: proration.ts allowedModes), `custom_data` and
 *              `scheduled_change` (subscription_only_update_items_on_paused_subscription).
 *   trialing   no refusal here: the billing rules are allowedModes (do_not_bill only) and
 *              trialingItemsRefusal (quantities only).
 *   a scheduled pause or cancel locks every change except `custom_data` and removing it
 *              (subscription_locked_pending_changes): the scheduled change was made for the items
 *              and dates as they are, and the next renewal it stops would bill the change. A
 *              request that removes it (`scheduled_change: null`) may change the rest at once. A
 *              scheduled resume (on a paused subscription) locks nothing: the resume bills the
 *              items as they are then.
 * pause      active, trialing (the API family pauses a trial at its end) and past_due (pausing
 *            cancels the past-due renewal, as the API family's pause scenario shows). Refused:
 *            canceled; paused (subscription_cannot_be_paused: to move the resume date, resume
 *            with a date); a scheduled pause or cancel (remove it first); continuing the existing
 *            billing period on resume for a past_due subscription (that period is unpaid); a
 *            trialing subscription paused `immediately` (subscription_cannot_be_paused: a trial
 *            pauses at its end, in place of its first charge — a trial paused midway would come
 *            back either as a trial with no end or billed early, neither of which was asked for).
 * resume     paused (a scheduled resume is replaced; a scheduled cancel locks it, as it locks an
 *            active subscription: remove it first), and active with a scheduled pause: it sets
 *            when the pause ends, as the API reference documents (integrators report that the
 *            API family answers subscription_must_be_paused there; we do what the reference says),
 *            which needs a date: `immediately` there is subscription_must_be_paused (to keep the
 *            subscription going, remove the scheduled pause). Otherwise subscription_must_be_paused,
 *            or subscription_is_canceled_action_invalid. A resume that bills a new period on
 *            automatic collection needs a saved payment method, when the caller knows there is
 *            none (subscription_missing_payment_method_cannot_resume).
 * cancel     any status but canceled, whatever is scheduled: a customer leaving must always be
 *            able to (a cancel replaces a scheduled pause or resume).
 * activate   trialing only (subscription_cannot_activate, the API family's message), automatic
 *            collection only (manual: move next_billed_at with do_not_bill instead), not while a
 *            pause or cancel is scheduled (activating bills the customer now: a customer who asked
 *            to leave is not charged by accident), and, when the caller knows, only with a saved
 *            payment method.
 * charge     (one-time charge) active and trialing. Refused: canceled; paused and past_due
 *            (subscription_not_active: resume or recover it first); billing it on the next
 *            billing period while a pause or cancel is scheduled (there is no next renewal).
 * update_payment_method  automatic collection only (subscription_not_automatic_collection), any
 *            status but canceled: a paused or past_due customer updates their card to come back.
 *
 * The status each allowed action (and the engine) then writes is in transitions.ts.
 */

export const SUBSCRIPTION_STATUSES = ["active", "trialing", "past_due", "paused", "canceled"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_ACTIONS = [
  "update",
  "pause",
  "resume",
  "cancel",
  "activate",
  "charge",
  "update_payment_method",
] as const;
export type SubscriptionAction = (typeof SUBSCRIPTION_ACTIONS)[number];

export type ScheduledChangeAction = "pause" | "cancel" | "resume";
export type CollectionMode = "automatic" | "manual";

/** What decides the allowed actions: a subscription entity (or its row) has these fields. */
export interface SubscriptionState {
  status: SubscriptionStatus;
  collection_mode: CollectionMode;
  scheduled_change: { action: ScheduledChangeAction } | null;
}

/** What the request asks for, where it changes the answer. */
export interface RefusalContext {
  /** update: the fields the PATCH body sets. Default ["items"]: "may the items be changed". */
  fields?: readonly string[];
  /** pause, resume: the `on_resume` asked for. */
  on_resume?: "start_new_billing_period" | "continue_existing_billing_period" | null;
  /**
   * charge: when the one-time charge is billed; pause: when the pause starts; resume:
   * "immediately" when asked to resume now (anything else: at a date).
   */
  effective_from?: "immediately" | "next_billing_period" | null;
  /** activate, resume: whether the subscription has a saved payment method (undefined: not checked). */
  has_payment_method?: boolean;
}

export interface Refusal {
  code: SubscriptionRefusalCode;
  detail: string;
}

/** Every code `refusal` and `trialingItemsRefusal` answer with: all HTTP 400, request_error. */
export const SUBSCRIPTION_REFUSAL_CODES = [
  "subscription_update_when_canceled",
  "subscription_update_when_past_due",
  "subscription_only_update_items_on_paused_subscription",
  "subscription_locked_pending_changes",
  "subscription_is_canceled_action_invalid",
  "subscription_cannot_be_paused",
  "subscription_continuing_existing_billing_period_not_allowed_subscription_past_due",
  "subscription_must_be_paused",
  "subscription_missing_payment_method_cannot_resume",
  "subscription_cannot_activate",
  "subscription_manual_collection_mode_activation_not_allowed",
  "subscription_missing_payment_method_cannot_activate",
  "subscription_not_active",
  "subscription_not_automatic_collection",
  "subscription_trialing_items_update_invalid_options",
] as const;
export type SubscriptionRefusalCode = (typeof SUBSCRIPTION_REFUSAL_CODES)[number];

/** PATCH fields that never bill and stay editable in more states. */
const NOTE_FIELDS = new Set(["custom_data"]);
/** PATCH fields a paused subscription accepts. */
const PAUSED_FIELDS = new Set(["items", "proration_billing_mode", "custom_data", "scheduled_change"]);

/** A scheduled pause or cancel: the next renewal will not happen. */
function stopping(sub: SubscriptionState): "pause" | "cancel" | null {
  const action = sub.scheduled_change?.action;
  return action === "pause" || action === "cancel" ? action : null;
}

const CANCELED: Refusal = {
  code: "subscription_is_canceled_action_invalid",
  detail: "The subscription is canceled, which is final: to sell again, create a new transaction with its items.",
};

function locked(change: "pause" | "cancel", what: string): Refusal {
  return {
    code: "subscription_locked_pending_changes",
    detail: `The subscription has a scheduled ${change}: ${what}. Remove the scheduled change first (update the subscription with scheduled_change null).`,
  };
}

/** Why `action` is refused for `sub`, or null when it is allowed. See the top of this file. */
export function refusal(
  action: SubscriptionAction,
  sub: SubscriptionState,
  context: RefusalContext = {},
): Refusal | null {
  switch (action) {
    case "update":
      return updateRefusal(sub, context.fields ?? ["items"]);

    case "pause": {
      if (sub.status === "canceled") return CANCELED;
      if (sub.status === "paused") {
        return {
          code: "subscription_cannot_be_paused",
          detail:
            "The subscription is already paused. To change when it resumes, resume it with effective_from set to the new date.",
        };
      }
      const change = stopping(sub);
      if (change) return locked(change, "it cannot be paused as well");
      if (sub.status === "trialing" && context.effective_from === "immediately") {
        return {
          code: "subscription_cannot_be_paused",
          detail:
            "A subscription in trial can only be paused at the end of its trial (effective_from next_billing_period), in place of its first charge. To end the trial now, activate or cancel it.",
        };
      }
      if (sub.status === "past_due" && context.on_resume === "continue_existing_billing_period") {
        return {
          code: "subscription_continuing_existing_billing_period_not_allowed_subscription_past_due",
          detail:
            "The subscription is past due because its billing period is unpaid, so that period cannot be continued on resume: use start_new_billing_period.",
        };
      }
      return null;
    }

    case "resume": {
      if (sub.status === "canceled") return CANCELED;
      const pausing = sub.status !== "paused" && sub.scheduled_change?.action === "pause";
      if (sub.status !== "paused" && !pausing) {
        return {
          code: "subscription_must_be_paused",
          detail: `Only a paused subscription can be resumed (or an active one with a scheduled pause, to set when the pause ends). The subscription is '${sub.status}'.`,
        };
      }
      // A paused subscription scheduled to cancel (instead of resuming) is locked as an active one
      // is: resuming would quietly take back the cancel.
      if (sub.scheduled_change?.action === "cancel") return locked("cancel", "it cannot be resumed");
      if (pausing && context.effective_from === "immediately") {
        return {
          code: "subscription_must_be_paused",
          detail: `The subscription is '${sub.status}' with a scheduled pause, so it cannot resume now: give effective_from a date to set when the pause ends, or remove the scheduled pause (update the subscription with scheduled_change null) to keep it going.`,
        };
      }
      const bills = context.on_resume !== "continue_existing_billing_period";
      if (bills && sub.collection_mode === "automatic" && context.has_payment_method === false) {
        return {
          code: "subscription_missing_payment_method_cannot_resume",
          detail:
            "Resuming starts a new billing period, charged to the subscription's saved payment method, and it has none: the customer must add one first (the update-payment-method transaction).",
        };
      }
      return null;
    }

    case "cancel":
      return sub.status === "canceled" ? { ...CANCELED, detail: "The subscription is already canceled." } : null;

    case "activate": {
      if (sub.status !== "trialing") {
        return {
          code: "subscription_cannot_activate",
          detail: `Only subscriptions which have status 'trialing' can be activated. Subscription status is '${sub.status}'`,
        };
      }
      if (sub.collection_mode !== "automatic") {
        return {
          code: "subscription_manual_collection_mode_activation_not_allowed",
          detail:
            "Unable to activate subscription where collection_mode is manual: change next_billed_at with proration_billing_mode do_not_bill to end the trial instead.",
        };
      }
      const change = stopping(sub);
      if (change) return locked(change, "activating would bill the customer now");
      if (context.has_payment_method === false) {
        return {
          code: "subscription_missing_payment_method_cannot_activate",
          detail: "Automatically-collected subscriptions in trial require a payment method to be activated.",
        };
      }
      return null;
    }

    case "charge": {
      if (sub.status === "canceled") return CANCELED;
      if (sub.status === "paused" || sub.status === "past_due") {
        return {
          code: "subscription_not_active",
          detail: `One-time charges need an active or trialing subscription; this one is '${sub.status}'. ${
            sub.status === "paused" ? "Resume it first." : "Collect its past due payment first."
          }`,
        };
      }
      const change = stopping(sub);
      if (change && context.effective_from === "next_billing_period") {
        return locked(change, "there is no next billing period to add the charge to; charge it immediately instead");
      }
      return null;
    }

    case "update_payment_method":
      if (sub.status === "canceled") return CANCELED;
      if (sub.collection_mode !== "automatic") {
        return {
          code: "subscription_not_automatic_collection",
          detail:
            "action requires the subscription to be in automatic collection mode: this one is paid by invoice, so it keeps no payment method.",
        };
      }
      return null;
  }
}

function updateRefusal(sub: SubscriptionState, fields: readonly string[]): Refusal | null {
  if (sub.status === "canceled") {
    return {
      code: "subscription_update_when_canceled",
      detail: "cannot update subscription, as subscription is canceled: a canceled subscription is final.",
    };
  }
  const removesScheduledChange = fields.includes("scheduled_change");
  const billing = fields.filter((field) => !NOTE_FIELDS.has(field) && field !== "scheduled_change");
  if (sub.status === "past_due" && billing.length > 0) {
    return {
      code: "subscription_update_when_past_due",
      detail: `cannot update subscription, as the subscription status is 'past_due': collect the past due payment first (only custom_data and scheduled_change can change now, not ${billing.join(", ")}).`,
    };
  }
  if (sub.status === "paused") {
    const others = fields.filter((field) => !PAUSED_FIELDS.has(field));
    if (others.length > 0) {
      return {
        code: "subscription_only_update_items_on_paused_subscription",
        detail: `only items can be updated when a subscription is paused (with proration_billing_mode do_not_bill), not ${others.join(", ")}.`,
      };
    }
  }
  const change = stopping(sub);
  if (change && !removesScheduledChange && billing.length > 0) {
    return locked(change, `${billing.join(", ")} cannot change while it is pending`);
  }
  return null;
}

/**
 * A trialing subscription's items may change quantity only (the API family:
 * subscription_trialing_items_update_invalid_options): the same prices before and after.
 */
export function trialingItemsRefusal(
  beforePriceIds: readonly string[],
  afterPriceIds: readonly string[],
): Refusal | null {
  const before = new Set(beforePriceIds);
  const after = new Set(afterPriceIds);
  const same = before.size === after.size && [...after].every((id) => before.has(id));
  if (same) return null;
  return {
    code: "subscription_trialing_items_update_invalid_options",
    detail:
      "You can't add or remove items for a subscription in trial, and you must use `do_not_bill` as the `proration_billing_mode` when updating quantities of existing items.",
  };
}

/** The actions allowed now (default context: update means changing items), for the dashboard. */
export function allowedActions(sub: SubscriptionState): SubscriptionAction[] {
  return SUBSCRIPTION_ACTIONS.filter((action) => refusal(action, sub) === null);
}
