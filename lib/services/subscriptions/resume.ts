/**
 * POST /subscriptions/{subscription_id}/resume (reference §3, §6).
 *
 * A paused subscription:
 * - `effective_from: immediately` (default, or null, or no body): resumed now (lifecycle.ts
 *   applyResume: `subscription.updated`, `subscription.resumed`). `start_new_billing_period`
 *   (default) starts a period now and bills it — on automatic collection charged to the saved card
 *   at once; a decline makes the subscription past_due and dunning begins, as the API family does
 *   (the resume itself stands). `continue_existing_billing_period` continues the kept period
 *   without a charge, only while it lasts.
 * - `effective_from: <date>`: `scheduled_change {resume, effective_at = date, resume_at: null}` and
 *   `next_billed_at` = that date (the resume bills then), replacing any scheduled resume;
 *   `subscription.updated`. The engine resumes it at that date.
 * An active (or trialing, past_due) subscription with a scheduled pause: a date sets when that
 * pause ends (its `resume_at`), as the API reference documents (§18.2: we follow the reference;
 * the state machine, lib/billing/subscription-states.ts, says so for API and dashboard alike).
 * `immediately` there is refused: to keep it going, remove the scheduled pause instead.
 *
 * Dates must be after the subscription's now (after the pause's start for a scheduled pause) and at
 * most ten years ahead. A resume that bills on automatic collection needs a saved payment method
 * (subscription_missing_payment_method_cannot_resume), checked when it is asked for.
 */
import { refusal } from "../../billing/subscription-states.ts";
import type { ResumeSubscriptionInput } from "../../schemas/subscription.ts";
import { savedCard } from "../payment-methods.ts";
import { applyResume } from "./lifecycle.ts";
import { checkContinuePeriod, futureDate, refuse, scheduleChange, subscriptionOperation } from "./operation.ts";

export function resumeSubscription(id: string, body: ResumeSubscriptionInput) {
  const effectiveFrom = body?.effective_from ?? "immediately";
  const onResume = body?.on_resume ?? "start_new_billing_period";
  return subscriptionOperation(id, async (client, sub, now) => {
    refuse(
      refusal("resume", sub, {
        effective_from: effectiveFrom === "immediately" ? "immediately" : null,
        on_resume: onResume,
        has_payment_method:
          sub.collection_mode === "automatic" ? (await savedCard(client, sub.payment_method_id)) !== null : undefined,
      }),
    );
    const continues = onResume === "continue_existing_billing_period";

    if (sub.status !== "paused") {
      // An active subscription with a scheduled pause (the state machine let only that through,
      // with a date): the date becomes the pause's resume_at.
      const pause = sub.scheduled_change;
      if (!pause) return;
      const pauseAt = new Date(pause.effective_at);
      const resumeAt = futureDate("effective_from", effectiveFrom, now, pauseAt, "the scheduled pause's start");
      if (continues) checkContinuePeriod(pauseAt, resumeAt, "after a pause that starts when the billing period ends");
      await scheduleChange(client, sub, { ...pause, resume_at: resumeAt.toISOString(), on_resume: onResume });
      return;
    }

    if (effectiveFrom === "immediately") {
      if (continues) checkContinuePeriod(sub.current_period_ends_at, now, "now");
      await applyResume(client, sub, now, onResume);
      return;
    }
    const resumeAt = futureDate("effective_from", effectiveFrom, now, now, "the subscription's current time");
    if (continues) checkContinuePeriod(sub.current_period_ends_at, resumeAt, "at effective_from");
    await scheduleChange(
      client,
      sub,
      { action: "resume", effective_at: resumeAt.toISOString(), resume_at: null, on_resume: onResume },
      resumeAt,
    );
  });
}
