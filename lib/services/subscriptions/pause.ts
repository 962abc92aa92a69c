/**
 * POST /subscriptions/{subscription_id}/pause: pause now, or at the end of the
 * billing period (the default), optionally with the date it resumes by itself.
 *
 * - `effective_from: next_billing_period` (default, or null): `scheduled_change {pause,
 *   effective_at = next_billed_at, resume_at}`, with `subscription.updated`; the engine pauses it at
 *   effective_at (stops.ts applyPause) instead of renewing, and resumes it at resume_at.
 * - `immediately`: paused now (applyPause: `subscription.updated`, `subscription.paused`); with
 *   resume_at, a scheduled resume at that date.
 *
 * Decisions (pause-rules, scheduled-change-keeps-next-billed-at in docs/decisions/):
 * - While a pause is scheduled, `next_billed_at` keeps showing the date it takes effect (=
 *   `scheduled_change.effective_at`, the end of the current period), not resume_at as one example
 *   of the API family shows: the subscription is billed nothing then (`scheduled_change` says why,
 *   and `next_transaction` is null), and removing the scheduled change (PATCH scheduled_change
 *   null) leaves the subscription exactly as it was, with nothing to restore. Once paused,
 *   `next_billed_at` is resume_at (the resume bills then), or null for an open-ended pause.
 * - A trialing subscription pauses at its trial's end only, in place of its first charge (the state
 *   machine refuses `immediately`).
 * - `resume_at` must be after the pause starts (now, or effective_at) and at most ten years ahead.
 * - `on_resume` applies to the resume at `resume_at`; a later POST /resume says its own.
 *   `continue_existing_billing_period` needs the resume to fall inside the kept period: never the
 *   case for a pause at the end of the period (refused up front,
 *   subscription_continuing_existing_billing_period_not_allowed), and for an immediate pause only
 *   when resume_at is before the period's end. Without resume_at it has nothing to apply to and is
 *   accepted as is.
 */

import { refusal } from "../../billing/subscription-states.ts";
import { ApiError } from "../../errors.ts";
import type { PauseSubscriptionInput } from "../../schemas/subscription.ts";
import { checkContinuePeriod, futureDate, refuse, scheduleChange, subscriptionOperation } from "./operation.ts";
import { applyPause } from "./stops.ts";

export function pauseSubscription(id: string, body: PauseSubscriptionInput) {
  const effectiveFrom = body?.effective_from ?? "next_billing_period";
  const onResume = body?.on_resume ?? "start_new_billing_period";
  return subscriptionOperation(id, async (client, sub, now) => {
    refuse(refusal("pause", sub, { on_resume: onResume, effective_from: effectiveFrom }));

    if (effectiveFrom === "immediately") {
      const resumeAt = body?.resume_at ? futureDate("resume_at", body.resume_at, now, now, "the pause (now)") : null;
      if (resumeAt && onResume === "continue_existing_billing_period") {
        checkContinuePeriod(sub.current_period_ends_at, resumeAt, "at resume_at");
      }
      await applyPause(client, sub, now, resumeAt, onResume);
      return;
    }

    // Active, trialing and past_due subscriptions always have a next billing date; the period's end
    // stands in should a row ever lack it.
    const effectiveAt = sub.next_billed_at ?? sub.current_period_ends_at;
    if (!effectiveAt) {
      throw new ApiError(
        "subscription_cannot_be_paused",
        "The subscription has no next billing period to pause at: pause it with effective_from immediately.",
      );
    }
    const resumeAt = body?.resume_at
      ? futureDate(
          "resume_at",
          body.resume_at,
          now,
          effectiveAt,
          "the pause's start, the subscription's next_billed_at",
        )
      : null;
    if (onResume === "continue_existing_billing_period") {
      throw new ApiError(
        "subscription_continuing_existing_billing_period_not_allowed",
        `The pause starts when the billing period ends (${effectiveAt.toISOString()}), so there is no period left to continue when it resumes: use on_resume start_new_billing_period, or pause immediately.`,
      );
    }
    await scheduleChange(client, sub, {
      action: "pause",
      effective_at: effectiveAt.toISOString(),
      resume_at: resumeAt?.toISOString() ?? null,
      on_resume: onResume,
    });
  });
}
