import { describe, expect, it } from "vitest";
import {
  allowedActions,
  type CollectionMode,
  type RefusalContext,
  refusal,
  type ScheduledChangeAction,
  SUBSCRIPTION_ACTIONS,
  SUBSCRIPTION_REFUSAL_CODES,
  SUBSCRIPTION_STATUSES,
  type SubscriptionAction,
  type SubscriptionStatus,
  trialingItemsRefusal,
} from "./subscription-states.ts";

type Row = Record<SubscriptionAction, string>;

function sub(
  status: SubscriptionStatus,
  collection_mode: CollectionMode = "automatic",
  scheduled?: ScheduledChangeAction,
) {
  return { status, collection_mode, scheduled_change: scheduled ? { action: scheduled } : null };
}

/** The code of the refusal, or "ok". */
function answer(
  status: SubscriptionStatus,
  action: SubscriptionAction,
  mode: CollectionMode = "automatic",
  scheduled?: ScheduledChangeAction,
  context?: RefusalContext,
): string {
  return refusal(action, sub(status, mode, scheduled), context)?.code ?? "ok";
}

function row(status: SubscriptionStatus, mode: CollectionMode, scheduled?: ScheduledChangeAction): Row {
  return Object.fromEntries(
    SUBSCRIPTION_ACTIONS.map((action) => [action, answer(status, action, mode, scheduled)]),
  ) as Row;
}

const CANCELED = "subscription_is_canceled_action_invalid";
const CANNOT_ACTIVATE = "subscription_cannot_activate";
const MUST_BE_PAUSED = "subscription_must_be_paused";
const LOCKED = "subscription_locked_pending_changes";

describe("refusal: every status × action", () => {
  it("automatic collection, nothing scheduled", () => {
    expect(Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, row(s, "automatic")]))).toEqual({
      active: {
        update: "ok",
        pause: "ok",
        resume: MUST_BE_PAUSED,
        cancel: "ok",
        activate: CANNOT_ACTIVATE,
        charge: "ok",
        update_payment_method: "ok",
      },
      trialing: {
        update: "ok",
        pause: "ok",
        resume: MUST_BE_PAUSED,
        cancel: "ok",
        activate: "ok",
        charge: "ok",
        update_payment_method: "ok",
      },
      past_due: {
        update: "subscription_update_when_past_due",
        pause: "ok",
        resume: MUST_BE_PAUSED,
        cancel: "ok",
        activate: CANNOT_ACTIVATE,
        charge: "subscription_not_active",
        update_payment_method: "ok",
      },
      paused: {
        update: "ok",
        pause: "subscription_cannot_be_paused",
        resume: "ok",
        cancel: "ok",
        activate: CANNOT_ACTIVATE,
        charge: "subscription_not_active",
        update_payment_method: "ok",
      },
      canceled: {
        update: "subscription_update_when_canceled",
        pause: CANCELED,
        resume: CANCELED,
        cancel: CANCELED,
        activate: CANNOT_ACTIVATE,
        charge: CANCELED,
        update_payment_method: CANCELED,
      },
    });
  });

  it("manual collection: no activation, no payment method; the rest as automatic", () => {
    for (const status of SUBSCRIPTION_STATUSES) {
      const manual = row(status, "manual");
      const automatic = row(status, "automatic");
      expect({
        ...manual,
        activate: automatic.activate,
        update_payment_method: automatic.update_payment_method,
      }).toEqual(automatic);
    }
    expect(answer("trialing", "activate", "manual")).toBe("subscription_manual_collection_mode_activation_not_allowed");
    expect(SUBSCRIPTION_STATUSES.map((s) => answer(s, "update_payment_method", "manual"))).toEqual([
      "subscription_not_automatic_collection",
      "subscription_not_automatic_collection",
      "subscription_not_automatic_collection",
      "subscription_not_automatic_collection",
      CANCELED,
    ]);
  });

  it("a scheduled pause or cancel locks changes and activation, not cancel; a scheduled pause can be given a resume date", () => {
    expect(row("active", "automatic", "pause")).toEqual({
      update: LOCKED,
      pause: LOCKED,
      resume: "ok",
      cancel: "ok",
      activate: CANNOT_ACTIVATE,
      charge: "ok",
      update_payment_method: "ok",
    });
    expect(row("active", "automatic", "cancel")).toEqual({
      update: LOCKED,
      pause: LOCKED,
      resume: MUST_BE_PAUSED,
      cancel: "ok",
      activate: CANNOT_ACTIVATE,
      charge: "ok",
      update_payment_method: "ok",
    });
    expect(row("trialing", "automatic", "cancel")).toEqual({
      update: LOCKED,
      pause: LOCKED,
      resume: MUST_BE_PAUSED,
      cancel: "ok",
      activate: LOCKED,
      charge: "ok",
      update_payment_method: "ok",
    });
    expect(row("past_due", "automatic", "cancel")).toEqual({ ...row("past_due", "automatic"), pause: LOCKED });
  });

  it("a scheduled resume on a paused subscription locks nothing", () => {
    expect(row("paused", "automatic", "resume")).toEqual(row("paused", "automatic"));
  });

  it("a scheduled cancel on a paused subscription locks its resume", () => {
    expect(row("paused", "automatic", "cancel")).toEqual({
      ...row("paused", "automatic"),
      update: LOCKED,
      resume: LOCKED,
    });
  });

  it("every refusal has a code from the list and a detail", () => {
    for (const status of SUBSCRIPTION_STATUSES) {
      for (const mode of ["automatic", "manual"] as const) {
        for (const scheduled of [undefined, "pause", "cancel", "resume"] as const) {
          for (const action of SUBSCRIPTION_ACTIONS) {
            const found = refusal(action, sub(status, mode, scheduled));
            if (!found) continue;
            expect(SUBSCRIPTION_REFUSAL_CODES).toContain(found.code);
            expect(found.detail.length).toBeGreaterThan(20);
          }
        }
      }
    }
    expect(refusal("activate", sub("paused"))?.detail).toBe(
      "Only subscriptions which have status 'trialing' can be activated. Subscription status is 'paused'",
    );
  });
});

describe("refusal: what the request asks for", () => {
  it("update depends on the fields: custom_data and removing a scheduled change are allowed more widely", () => {
    const fields = (...f: string[]) => ({ fields: f });
    expect(answer("past_due", "update", "automatic", undefined, fields("custom_data"))).toBe("ok");
    expect(answer("past_due", "update", "automatic", "cancel", fields("scheduled_change"))).toBe("ok");
    expect(answer("past_due", "update", "automatic", undefined, fields("custom_data", "address_id"))).toBe(
      "subscription_update_when_past_due",
    );
    expect(answer("canceled", "update", "automatic", undefined, fields("custom_data"))).toBe(
      "subscription_update_when_canceled",
    );
    expect(answer("paused", "update", "automatic", undefined, fields("items", "proration_billing_mode"))).toBe("ok");
    expect(answer("paused", "update", "automatic", undefined, fields("items", "next_billed_at"))).toBe(
      "subscription_only_update_items_on_paused_subscription",
    );
    expect(answer("active", "update", "automatic", "cancel", fields("custom_data"))).toBe("ok");
    expect(answer("active", "update", "automatic", "cancel", fields("items", "proration_billing_mode"))).toBe(LOCKED);
    // Removing the scheduled change in the same request unlocks the rest.
    expect(answer("active", "update", "automatic", "cancel", fields("scheduled_change", "items"))).toBe("ok");
    expect(refusal("update", sub("active", "automatic", "pause"), fields("next_billed_at"))?.detail).toContain(
      "scheduled pause: next_billed_at cannot change",
    );
  });

  it("pause of a past_due subscription cannot continue its unpaid period", () => {
    expect(answer("past_due", "pause", "automatic", undefined, { on_resume: "continue_existing_billing_period" })).toBe(
      "subscription_continuing_existing_billing_period_not_allowed_subscription_past_due",
    );
    expect(answer("past_due", "pause", "automatic", undefined, { on_resume: "start_new_billing_period" })).toBe("ok");
    expect(answer("active", "pause", "automatic", undefined, { on_resume: "continue_existing_billing_period" })).toBe(
      "ok",
    );
  });

  it("a trial pauses at its end, not immediately", () => {
    expect(answer("trialing", "pause", "automatic", undefined, { effective_from: "immediately" })).toBe(
      "subscription_cannot_be_paused",
    );
    expect(answer("trialing", "pause", "automatic", undefined, { effective_from: "next_billing_period" })).toBe("ok");
    expect(answer("active", "pause", "automatic", undefined, { effective_from: "immediately" })).toBe("ok");
  });

  it("resume: a scheduled pause takes a date, not immediately; a billing resume needs a payment method", () => {
    expect(answer("active", "resume", "automatic", "pause", { effective_from: "immediately" })).toBe(MUST_BE_PAUSED);
    expect(answer("active", "resume", "automatic", "pause", { effective_from: null })).toBe("ok");
    expect(answer("paused", "resume", "automatic", undefined, { effective_from: "immediately" })).toBe("ok");
    const noCard = { has_payment_method: false } as const;
    expect(answer("paused", "resume", "automatic", undefined, noCard)).toBe(
      "subscription_missing_payment_method_cannot_resume",
    );
    expect(
      answer("paused", "resume", "automatic", undefined, { ...noCard, on_resume: "continue_existing_billing_period" }),
    ).toBe("ok");
    expect(answer("paused", "resume", "manual", undefined, noCard)).toBe("ok");
  });

  it("a charge on the next billing period needs a next renewal", () => {
    expect(answer("active", "charge", "automatic", "cancel", { effective_from: "next_billing_period" })).toBe(LOCKED);
    expect(answer("active", "charge", "automatic", "pause", { effective_from: "immediately" })).toBe("ok");
    expect(answer("active", "charge", "automatic", undefined, { effective_from: "next_billing_period" })).toBe("ok");
  });

  it("activation needs a payment method when the caller knows there is none", () => {
    expect(answer("trialing", "activate", "automatic", undefined, { has_payment_method: false })).toBe(
      "subscription_missing_payment_method_cannot_activate",
    );
    expect(answer("trialing", "activate", "automatic", undefined, { has_payment_method: true })).toBe("ok");
  });
});

describe("trialingItemsRefusal and allowedActions", () => {
  it("a trial's items change quantity only", () => {
    expect(trialingItemsRefusal(["pri_a", "pri_b"], ["pri_b", "pri_a"])).toBeNull();
    expect(trialingItemsRefusal(["pri_a"], ["pri_a", "pri_b"])?.code).toBe(
      "subscription_trialing_items_update_invalid_options",
    );
    expect(trialingItemsRefusal(["pri_a", "pri_b"], ["pri_a"])?.code).toBe(
      "subscription_trialing_items_update_invalid_options",
    );
  });

  it("lists what the dashboard may offer", () => {
    expect(allowedActions(sub("active"))).toEqual(["update", "pause", "cancel", "charge", "update_payment_method"]);
    expect(allowedActions(sub("paused", "manual"))).toEqual(["update", "resume", "cancel"]);
    expect(allowedActions(sub("canceled"))).toEqual([]);
  });
});
