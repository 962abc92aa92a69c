/**
 * POST /subscriptions/{subscription_id}/resume, and its preview
 * POST /subscriptions/{subscription_id}/resume/preview (ours: the API family previews a resume only
 * through `GET ?include=recurring_transaction_details`, which leaves out what a resume bills beside
 * the items — waiting charges, the pause's credit, the credit balance — so the dashboard could not
 * say what "Resume now" charges).
 *
 * A paused subscription:
 * - `effective_from: immediately` (default, or null, or no body): resumed now (lifecycle.ts
 *   applyResume: `subscription.updated`, `subscription.resumed`). `start_new_billing_period`
 *   (default) starts a period now and bills it — on automatic collection charged to the saved card
 *   at once; a decline makes the subscription past_due and dunning begins, as the API family does
 *   (the resume itself stands). The transaction carries the credit of the unused rest of the
 *   period the pause interrupted (stops.ts pauseCreditLines). `continue_existing_billing_period`
 *   continues the kept period without a charge, only while it lasts (and drops that credit).
 * - `effective_from: <date>`: `scheduled_change {resume, effective_at = date, resume_at: null}` and
 *   `next_billed_at` = that date (the resume bills then), replacing any scheduled resume;
 *   `subscription.updated`. The engine resumes it at that date.
 * An active (or trialing, past_due) subscription with a scheduled pause: a date sets when that
 * pause ends (its `resume_at`), as the API family's reference documents (decision: resume-sets-scheduled-pause-end;
 * the state machine, lib/billing/subscription-states.ts, says so for API and dashboard alike).
 * `immediately` there is refused: to keep it going, remove the scheduled pause instead.
 *
 * Dates must be after the subscription's now (after the pause's start for a scheduled pause) and at
 * most ten years ahead. A resume that bills on automatic collection needs a saved payment method
 * (subscription_missing_payment_method_cannot_resume), checked when it is asked for.
 *
 * One plan (`planResume`) serves the resume and its preview: the same checks, the same errors, and
 * the preview prices the lines the resume bills (lifecycle.ts periodLines: the items and every
 * waiting line) with the discount of the new period and the customer's credit balance, as
 * billing.ts billSubscription does, so the amount shown is the amount charged.
 */
import { addInterval } from "../../billing/billing-dates.ts";
import { updateSummary } from "../../billing/proration.ts";
import { refusal } from "../../billing/subscription-states.ts";
import { pool } from "../../db/connection.ts";
import type { Queryable } from "../../db/sql.ts";
import type { ResumeSubscriptionInput } from "../../schemas/subscription.ts";
import { rfc3339 } from "../../timestamps.ts";
import { savedCard } from "../payment-methods.ts";
import { periodDiscount, subscriptionNow } from "./billing.ts";
import { applyResume, canContinuePeriod } from "./lifecycle.ts";
import { checkContinuePeriod, futureDate, refuse, scheduleChange, subscriptionOperation } from "./operation.ts";
import {
  apiPeriod,
  nextTransaction,
  previewShape,
  priceLines,
  type RenewalState,
  recurringDetails,
  storedRenewalState,
  summaryOf,
  type TransactionPreview,
} from "./preview.ts";
import { readSubscription, type SubscriptionRow, subscriptionJson } from "./store.ts";

type OnResume = NonNullable<NonNullable<SubscriptionRow["scheduled_change"]>["on_resume"]>;

/** What a resume request does, decided once for the resume and its preview. */
type ResumePlan =
  /** An active subscription's scheduled pause gets its end date. */
  | { kind: "pause_end"; change: NonNullable<SubscriptionRow["scheduled_change"]> }
  /** Resumed now: a new billed period, or the kept one continued. */
  | { kind: "now"; onResume: OnResume }
  /** Resumed at a date (a scheduled resume). */
  | { kind: "scheduled"; at: Date; change: NonNullable<SubscriptionRow["scheduled_change"]> };

async function planResume(
  on: Queryable,
  sub: SubscriptionRow,
  body: ResumeSubscriptionInput,
  now: Date,
): Promise<ResumePlan | null> {
  const effectiveFrom = body?.effective_from ?? "immediately";
  const onResume = body?.on_resume ?? "start_new_billing_period";
  refuse(
    refusal("resume", sub, {
      effective_from: effectiveFrom === "immediately" ? "immediately" : null,
      on_resume: onResume,
      has_payment_method:
        sub.collection_mode === "automatic" ? (await savedCard(on, sub.payment_method_id)) !== null : undefined,
    }),
  );
  const continues = onResume === "continue_existing_billing_period";

  if (sub.status !== "paused") {
    // An active subscription with a scheduled pause (the state machine let only that through,
    // with a date): the date becomes the pause's resume_at.
    const pause = sub.scheduled_change;
    if (!pause) return null;
    const pauseAt = new Date(pause.effective_at);
    const resumeAt = futureDate("effective_from", effectiveFrom, now, pauseAt, "the scheduled pause's start");
    if (continues) checkContinuePeriod(pauseAt, resumeAt, "after a pause that starts when the billing period ends");
    return { kind: "pause_end", change: { ...pause, resume_at: resumeAt.toISOString(), on_resume: onResume } };
  }

  if (effectiveFrom === "immediately") {
    if (continues) checkContinuePeriod(sub.current_period_ends_at, now, "now");
    return { kind: "now", onResume };
  }
  const resumeAt = futureDate("effective_from", effectiveFrom, now, now, "the subscription's current time");
  if (continues) checkContinuePeriod(sub.current_period_ends_at, resumeAt, "at effective_from");
  return {
    kind: "scheduled",
    at: resumeAt,
    change: { action: "resume", effective_at: resumeAt.toISOString(), resume_at: null, on_resume: onResume },
  };
}

export function resumeSubscription(id: string, body: ResumeSubscriptionInput) {
  return subscriptionOperation(id, async (client, sub, now) => {
    const plan = await planResume(client, sub, body, now);
    if (!plan) return;
    if (plan.kind === "pause_end") await scheduleChange(client, sub, plan.change);
    else if (plan.kind === "now") await applyResume(client, sub, now, plan.onResume);
    else await scheduleChange(client, sub, plan.change, plan.at);
  });
}

/**
 * The preview of the same resume: the subscription as it would be, `immediate_transaction` = what
 * resuming now bills (null when nothing is billed now: a continued period, a date), and
 * `next_transaction` = the payment after it (for a resume at a date: the resume's own transaction).
 */
export async function previewResume(id: string, body: ResumeSubscriptionInput): Promise<Record<string, unknown>> {
  const on = pool();
  const sub = await readSubscription(on, id);
  const now = subscriptionNow(sub);
  const plan = await planResume(on, sub, body, now);
  const state = await storedRenewalState(on, sub);
  let after: SubscriptionRow = sub;
  let renewal: RenewalState = state;
  let immediate: TransactionPreview | null = null;
  if (plan?.kind === "pause_end") after = { ...sub, scheduled_change: plan.change };
  else if (plan?.kind === "scheduled") after = { ...sub, scheduled_change: plan.change, next_billed_at: plan.at };
  else if (
    plan?.kind === "now" &&
    plan.onResume === "continue_existing_billing_period" &&
    canContinuePeriod(sub, now)
  ) {
    after = {
      ...sub,
      status: "active",
      paused_at: null,
      scheduled_change: null,
      next_billed_at: sub.current_period_ends_at,
    };
    // The pause's credit goes when the kept period continues (lifecycle.ts applyResume).
    renewal = { ...state, sub: after, pending: state.pending.filter((line) => !line.credit) };
  } else if (plan?.kind === "now") {
    const period = {
      starts_at: now,
      ends_at: addInterval(now, sub.billing_cycle.interval, sub.billing_cycle.frequency),
    };
    after = {
      ...sub,
      status: "active",
      paused_at: null,
      scheduled_change: null,
      billing_anchor_at: now,
      current_period_starts_at: period.starts_at,
      current_period_ends_at: period.ends_at,
      next_billed_at: period.ends_at,
      first_billed_at: sub.first_billed_at ?? now,
    };
    const priced = await priceLines(
      on,
      after,
      [...state.items, ...state.pending],
      await periodDiscount(on, after, now),
      state.credit,
    );
    immediate = { billing_period: apiPeriod(period), details: priced.details, adjustments: [] };
    renewal = { ...state, sub: after, pending: [], credit: state.credit - priced.creditUsed + priced.creditAdded };
  }
  if (after !== sub && renewal === state) renewal = { ...state, sub: after };
  const entity = resumedEntity((await subscriptionJson(on, id)).parse() as Record<string, any>, after);
  return previewShape(entity, {
    immediate_transaction: immediate,
    next_transaction: await nextTransaction(on, renewal),
    recurring_transaction_details: await recurringDetails(on, renewal),
    update_summary: immediate
      ? summaryOf(immediate.details, sub.currency_code)
      : updateSummary(0n, 0n, sub.currency_code),
  });
}

/** The subscription entity as the resume leaves it (what the resume would answer). */
function resumedEntity(entity: Record<string, any>, after: SubscriptionRow): Record<string, unknown> {
  const time = (date: Date | null) => rfc3339(date);
  const running = after.status !== "paused" && after.status !== "canceled";
  const change = after.scheduled_change;
  return {
    ...entity,
    status: after.status,
    first_billed_at: time(after.first_billed_at),
    next_billed_at: time(after.next_billed_at),
    paused_at: time(after.paused_at),
    current_billing_period:
      running && after.current_period_starts_at && after.current_period_ends_at
        ? { starts_at: time(after.current_period_starts_at), ends_at: time(after.current_period_ends_at) }
        : null,
    scheduled_change: change
      ? {
          action: change.action,
          effective_at: time(new Date(change.effective_at)),
          resume_at: change.resume_at ? time(new Date(change.resume_at)) : null,
        }
      : null,
    items: (entity.items as Record<string, any>[]).map((item) => ({
      ...item,
      status: running ? (item.status === "inactive" ? "active" : item.status) : item.status,
      next_billed_at: running ? time(after.next_billed_at) : null,
    })),
  };
}
