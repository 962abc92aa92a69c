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
import { remindTrialEndingBy, sendEventEmails, sendTrialEndingEmail, TRIAL_REMINDER_DAYS } from "./events";
import { paymentFailedEmail } from "./templates";

type Entity = Record<string, any>;

/** Runs the email jobs of every event about `entityIds` not handled yet (as the worker would). */
async function runEmailJobs(entityIds: string[]): Promise<void> {
  const events = await query<{ id: string }>(
    "SELECT id FROM events WHERE entity_id = ANY($1) AND emails_wanted(event_type) ORDER BY id",
    [entityIds],
  );
  for (const event of events) await sendEventEmails(event.id);
}

async function reminderJob(subscriptionId: string): Promise<{ run_at: Date; payload: Entity }> {
  const [job] = await query<{ run_at: Date; payload: Entity }>(
    "SELECT run_at, payload FROM graphile_worker._private_jobs WHERE key = $1",
    [`trial_ending:${subscriptionId}`],
  );
  return job!;
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
    const job = await reminderJob(subscription.id);
    expect(job.payload).toMatchObject({ subscription_id: subscription.id, trial_ends_at: subscription.next_billed_at });
    expect(job.run_at.getTime()).toBe(Date.parse(subscription.next_billed_at) - TRIAL_REMINDER_DAYS * 86_400_000);

    // The job run early (by real time and the subscription's clock): not due yet, scheduled again.
    expect(await sendTrialEndingEmail(job.payload as Parameters<typeof sendTrialEndingEmail>[0])).toBe("scheduled");
    expect(await emailsOf([subscription.id])).toEqual([]);

    // Canceled before the reminder is due: no reminder, ever; the cancellation email instead.
    const other = await subscribeAtCheckout({ price });
    await runEmailJobs([other.subscription.id]);
    const otherJob = await reminderJob(other.subscription.id);
    await cancelSubscription(other.subscription.id, { effective_from: "immediately" });
    await runEmailJobs([other.subscription.id]);
    expect(await sendTrialEndingEmail(otherJob.payload as Parameters<typeof sendTrialEndingEmail>[0])).toBe("skipped");
    expect((await emailsOf([other.subscription.id])).map((e) => e.template)).toEqual(["subscription_canceled"]);
    expect(customer.email).toBeTruthy();
  });

  it("follows the sandbox test clock: advancing it past the reminder's time sends it, once, before the trial ends", async () => {
    const price = await makeRecurringPrice({ trial_period: { interval: "day", frequency: 14 } });
    const { subscription, customer } = await subscribeAtCheckout({ price });
    await runEmailJobs([subscription.id]);
    const endsAt = Date.parse(subscription.next_billed_at);
    const remindAt = endsAt - TRIAL_REMINDER_DAYS * 86_400_000;

    // Not yet: one hour before the reminder's time.
    await advanceTo(subscription.id, new Date(remindAt - 3_600_000));
    expect((await emailsOf([subscription.id])).filter((e) => e.template === "trial_ending")).toEqual([]);

    // Past it: the reminder, naming the trial's end, queued for delivery.
    await advanceTo(subscription.id, new Date(remindAt + 60_000));
    const [reminder] = (await emailsOf([subscription.id])).filter((e) => e.template === "trial_ending");
    expect(reminder).toMatchObject({
      status: "pending",
      to_address: customer.email,
      event_type: "subscription.trialing",
    });
    expect(reminder!.subject).toMatch(/^Your trial with .+ ends on \d{1,2} \w+ \d{4}$/);
    expect(reminder!.text_body).toMatch(/Manage subscription: http:\/\/localhost:3000\/portal\/overview\?token=/);
    // The real-time job, when it runs, and a further advance do not write it twice.
    const job = await reminderJob(subscription.id);
    await sendTrialEndingEmail(job.payload as Parameters<typeof sendTrialEndingEmail>[0]);
    await advanceTo(subscription.id, new Date(endsAt + 60_000));
    const reminders = (await emailsOf([subscription.id])).filter((e) => e.template === "trial_ending");
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.status).toBe("logged");

    // One clock jump over the whole trial still sends the reminder (as of its own time, while trialing).
    const jumped = await subscribeAtCheckout({ price });
    const active = await advanceTo(
      jumped.subscription.id,
      new Date(Date.parse(jumped.subscription.next_billed_at) + 60_000),
    );
    expect(active.status).toBe("active");
    expect((await emailsOf([jumped.subscription.id])).map((e) => e.template)).toContain("trial_ending");

    // Canceled (no longer trialing): the clock reaching the reminder's time sends nothing.
    const canceled = await subscribeAtCheckout({ price });
    await cancelSubscription(canceled.subscription.id, { effective_from: "immediately" });
    expect(await remindTrialEndingBy(canceled.subscription.id, new Date(remindAt + 86_400_000))).toBe("skipped");
    expect((await emailsOf([canceled.subscription.id])).map((e) => e.template)).not.toContain("trial_ending");
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
    // The reason in plain words, from the payment's error code.
    expect(failed?.text_body).toContain("The reason given: The card was declined by the bank. Try another card.");
  });

  it("a charge the bank wants confirmed (3-D Secure) asks the customer to confirm it, not to change the card", () => {
    const content = paymentFailedEmail({
      merchant: "Acme",
      logoUrl: null,
      customerName: "Sam",
      amount: "$30.00",
      link: "https://billing.example/portal/x",
      needsAuthentication: true,
    });
    expect(content.subject).toBe("Confirm your payment to Acme");
    expect(content.text).toContain("Your bank asks you to confirm your payment of $30.00");
    expect(content.text).toContain("Confirm payment: https://billing.example/portal/x");
  });
});
