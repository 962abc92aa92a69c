/** Sends the events of a simulation run, in order (lib/simulator/runner.ts). */
import { z } from "zod";
import type { Queryable } from "../../db/sql.ts";
import { defineJob, queueJob } from "./job.ts";

export const runSimulationJob = defineJob({
  id: "run_simulation",
  /** Send the events of simulation run `id`. */
  payload: z.object({ id: z.string() }),
});

/** Queues a simulation run (call inside the transaction that created it). */
export async function queueSimulationRun(on: Queryable, runId: string): Promise<void> {
  await queueJob(on, runSimulationJob, { id: runId });
}
