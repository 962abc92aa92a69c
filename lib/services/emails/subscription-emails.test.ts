/**
 * The subscription emails from the events the subscription engine writes: trial ending (scheduled
 * before the trial ends, sent only if still in that trial), payment failed at each failed renewal
 * charge (dunning), subscription canceled. Without SMTP_URL: kept as `logged`.
 */
import { describe, expect, it } from "vitest";
import { query } from "@/lib/db/sql";
import { advanceTo } from "@/lib/dev/test/subscription-updates";
import { DECLINES_LATER_CARD, makeRecurringPrice, subscribeAtCheckout } from "@/lib/dev/test/subscriptions";
import { cancelSubscription } from "@/lib/services/subscriptions/cancel";
import { sendEventEmails, sendTrialEndingEmail, TRIAL_REMINDER_DAYS } from "./events";

type Entity = Record<string, any>;

/** Runs the email jobs of every event about `entityIds` not handled yet (as the worker would). */
async function runEmailJobs(entityIds: string[]): Promise<void> {
  const events = await query<{ id: string }>(
    "SELECT id FROM events WHERE entity_id = ANY($1) AND emails_wanted(event_type) ORDER BY id",
    [entityIds],
  );
  for (const event of events) await sendEventEmails(event.id);
}

async function emailsOf(entityIds: string[]): Promise<Entity[]> {
  return query("SELECT * FROM emails WHERE entity_id = ANY($1) ORDER BY id", [entityIds]);
}

describe("subscription emails", () => {
  it("schedules the trial-ending reminder 3 days before the trial ends, and sends it only while the trial lasts", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const { subscription, customer } = await subscribeAtCheckout({ price });
    expect(subscription.status).toBe("trialing");
    await runEmailJobs([subscription.id]);
    const [job] = await query<{ run_at: Date; payload: Entity }>(
      "SELECT run_at, payload FROM graphile_worker._private_jobs WHERE key = $1",
      [`trial_ending:${subscription.id}`],
    );
    expect(job.payload).toMatchObject({ subscription_id: subscription.id, trial_ends_at: subscription.next_billed_at });
    expect(job.run_at.getTime()).toBe(Date.parse(subscription.next_billed_at) - TRIAL_REMINDER_DAYS * 86_400_000);

    await sendTrialEndingEmail(job.payload as Parameters<typeof sendTrialEndingEmail>[0]);
    const [reminder] = (await emailsOf([subscription.id])).filter((e) => e.template === "trial_ending");
    expect(reminder).toMatchObject({ status: "logged", to_address: customer.email });
    expect(reminder.subject).toMatch(/^Your trial with .+ ends on \d{1,2} \w+ \d{4}$/);
    expect(reminder.text_body).toMatch(/Manage subscription: http:\/\/localhost:3000\/portal\/overview\?token=/);

    // Canceled before the reminder runs: no reminder; the cancellation email instead.
    const other = await subscribeAtCheckout({ price });
    await runEmailJobs([other.subscription.id]);
    const [otherJob] = await query<{ payload: Entity }>(
      "SELECT payload FROM graphile_worker._private_jobs WHERE key = $1",
      [`trial_ending:${other.subscription.id}`],
    );
    await cancelSubscription(other.subscription.id, { effective_from: "immediately" });
    await runEmailJobs([other.subscription.id]);
    await sendTrialEndingEmail(otherJob.payload as Parameters<typeof sendTrialEndingEmail>[0]);
    expect((await emailsOf([other.subscription.id])).map((e) => e.template)).toEqual(["subscription_canceled"]);
  });

  it("emails payment failed at each failed renewal charge, then subscription canceled when dunning gives up", async () => {
    const { subscription, transaction } = await subscribeAtCheckout({ card: DECLINES_LATER_CARD });
    const dueAt = Date.parse(subscription.next_billed_at);
    expect((await advanceTo(subscription.id, new Date(dueAt + 60_000))).status).toBe("past_due");
    expect((await advanceTo(subscription.id, new Date(dueAt + 8 * 86_400_000))).status).toBe("canceled");
    const renewals = await query<{ id: string }>(
      "SELECT id FROM transactions WHERE subscription_id = $1 AND id <> $2",
      [subscription.id, transaction.id],
    );
    const ids = [subscription.id, transaction.id, ...renewals.map((r) => r.id)];
    await runEmailJobs(ids);
    const templates = (await emailsOf(ids)).map((e) => e.template);
    // The first purchase's receipt; one "payment failed" per failed charge (the first and each retry).
    expect(templates.filter((t) => t === "receipt")).toHaveLength(1);
    expect(templates.filter((t) => t === "payment_failed").length).toBeGreaterThanOrEqual(2);
    expect(templates.filter((t) => t === "subscription_canceled")).toHaveLength(1);
    const failed = (await emailsOf(ids)).find((e) => e.template === "payment_failed");
    expect(failed?.text_body).toMatch(
      /Update payment method: http:\/\/localhost:3000\/portal\/subscriptions\/sub_\w+\/update-payment-method\?token=/,
    );
  });
});
