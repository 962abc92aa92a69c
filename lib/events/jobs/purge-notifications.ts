/**
 * Hourly: deletes notifications past their retention, and the other records kept for a while:
 * Idempotency-Key answers (24 h), rate-limit counters of past minutes, and the checkout's declined
 * attempts (a day).
 */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const purgeNotificationsJob = defineJob({
  id: "purge_notifications",
  payload: z.object({}),
  schedule: "17 * * * *",
});
