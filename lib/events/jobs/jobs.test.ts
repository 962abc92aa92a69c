/** The job declarations: the queue's task names stay what queued rows and SQL use. */
import { describe, expect, it } from "vitest";
import { JOBS } from "./all.ts";

describe("background jobs", () => {
  it("keep their task names (queued jobs and the migrations' add_job calls name them)", () => {
    expect(JOBS.map((job) => job.id)).toEqual([
      "deliver_notification",
      "run_simulation",
      "purge_notifications",
      "mark_past_due",
      "subscriptions_due",
      "generate_report",
      "expire_reports",
      "send_event_emails",
      "deliver_emails",
      "send_trial_ending_email",
      "purge_audit_log",
      "apply_stripe_event",
      "create_stripe_refund",
      "reconcile_payments",
    ]);
  });
});
