/**
 * Every 10 minutes: ready reports past `expires_at` become expired (their files deleted); stuck
 * generations are given up (lib/services/reports/expire.ts).
 */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const expireReportsJob = defineJob({
  id: "expire_reports",
  payload: z.object({}),
  schedule: "*/10 * * * *",
});
