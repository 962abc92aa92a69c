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
  async run() {
    const { purgeNotifications } = await import("../delivery.ts");
    await purgeNotifications();
    const { purgeIdempotencyKeys } = await import("../../http/idempotency.ts");
    const { purgeRateLimitCounters } = await import("../../http/rate-limit.ts");
    const { purgeCheckoutDeclines } = await import("../../services/payments/declines.ts");
    await purgeIdempotencyKeys();
    await purgeRateLimitCounters();
    await purgeCheckoutDeclines();
  },
});
