/** Generates one report (lib/services/reports/generate.ts). */
import { z } from "zod";
import type { Queryable } from "../../db/sql.ts";
import { defineJob, queueJob } from "./job.ts";

export const generateReportJob = defineJob({
  id: "generate_report",
  /** Generate report `id`. */
  payload: z.object({ id: z.string() }),
  // A generation is tried this many times (a worker crash or a lost database mid-way); after the
  // last failed try the report is marked `failed`.
  maxAttempts: 3,
});

/** Queues the generation of report `id` (call inside the transaction that created it). */
export async function queueReportGeneration(on: Queryable, id: string): Promise<void> {
  await queueJob(on, generateReportJob, { id });
}
