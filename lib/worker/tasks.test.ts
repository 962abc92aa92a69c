/** The worker's jobs: one handler per declared job, the crontab built from their schedules. */
import type { JobHelpers } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { JOBS } from "../events/jobs/all.ts";
import { runSimulationJob } from "../events/jobs/run-simulation.ts";
import { CRONTAB, WORKER_JOBS } from "./tasks.ts";

describe("the worker's jobs", () => {
  it("handle every declared job, once, in the declarations' order", () => {
    expect(WORKER_JOBS.map((job) => job.id)).toEqual(JOBS.map((job) => job.id));
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
    const runSimulation = WORKER_JOBS.find((job) => job.id === runSimulationJob.id);
    await expect(runSimulation?.task({ id: 42 }, {} as JobHelpers)).rejects.toThrow(/id/);
  });
});
