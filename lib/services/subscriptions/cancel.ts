/**
 * POST /subscriptions/{subscription_id}/cancel.
 *
 * - `effective_from: next_billing_period` (the default for active, trialing and past_due
 *   subscriptions): `scheduled_change {cancel, effective_at = next_billed_at, resume_at: null}`,
 *   replacing a scheduled pause, with `subscription.updated`; the engine cancels it then instead of
 *   renewing (stops.ts applyCancel). A trial canceled so ends without its first charge.
 * - `immediately` (the default for paused subscriptions, as in the API family): canceled now (applyCancel:
 *   `subscription.updated`, `subscription.canceled`); what was waiting for the next renewal is
 *   forgiven.
 *
 * Decisions (cancel-rules, scheduled-change-keeps-next-billed-at in docs/decisions/):
 * - While a cancel is scheduled, `next_billed_at` keeps showing the date it takes effect (the
 *   reference's docs say it becomes null): the same rule as a scheduled pause (pause.ts), so that
 *   removing the scheduled change leaves the subscription as it was. `scheduled_change` says that
 *   nothing will be billed then.
 * - A paused subscription's "next billing period" starts at its scheduled resume: canceling it at
 *   the next billing period cancels it then instead of resuming (the scheduled resume is replaced).
 *   Paused without a resume date it has none: `next_billing_period` is refused (invalid_field on
 *   effective_from; cancel it immediately).
 * - Asking again for the cancel already scheduled changes nothing and announces nothing (a retried
 *   or doubled request is harmless): it answers the subscription as it is.
 * - Any status but canceled may cancel, whatever is scheduled (the state machine): a customer who
 *   wants to leave always can.
 */
import { refusal } from "../../billing/subscription-states.ts";
import { invalidField } from "../../errors.ts";
import type { CancelSubscriptionInput } from "../../schemas/subscription.ts";
import { refuse, scheduleChange, subscriptionOperation } from "./operation.ts";
import { applyCancel } from "./stops.ts";

export function cancelSubscription(id: string, body: CancelSubscriptionInput) {
  return subscriptionOperation(id, async (client, sub, now) => {
    refuse(refusal("cancel", sub));
    const effectiveFrom = body?.effective_from ?? (sub.status === "paused" ? "immediately" : "next_billing_period");
    if (effectiveFrom === "immediately") {
      await applyCancel(client, sub, now);
      return;
    }
    const effectiveAt = sub.next_billed_at;
    if (!effectiveAt) {
      throw invalidField(
        "effective_from",
        `the subscription is ${sub.status} with no next billing date, so it has no next billing period to cancel at: use immediately`,
      );
    }
    const scheduled = sub.scheduled_change;
    if (scheduled?.action === "cancel" && Date.parse(scheduled.effective_at) === effectiveAt.getTime()) return;
    await scheduleChange(client, sub, { action: "cancel", effective_at: effectiveAt.toISOString(), resume_at: null });
  });
}
