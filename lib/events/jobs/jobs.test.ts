/** The job declarations: the queue's task names and schedules stay what queued rows and SQL use. */
import type { JobHelpers } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { CRONTAB } from "../worker.ts";
import { JOBS } from "./all.ts";
import { runSimulationJob } from "./run-simulation.ts";

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

  it("build the worker's crontab from their schedules", () => {
    expect(CRONTAB.split("\n")).toEqual([
      "17 * * * * purge_notifications",
      "* * * * * mark_past_due",
      "* * * * * subscriptions_due",
      "*/10 * * * * expire_reports",
      "43 3 * * * purge_audit_log",
      "* * * * * reconcile_payments",
    ]);
  });

  it("parse the payload before the handler runs: a malformed one fails the job", async () => {
    await expect(runSimulationJob.task({ id: 42 }, {} as JobHelpers)).rejects.toThrow(/id/);
  });
});
