/**
 * Every minute: the subscriptions' due renewals, scheduled changes and dunning
 * (lib/services/subscriptions/engine.ts).
 */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const subscriptionsDueJob = defineJob({
  id: "subscriptions_due",
  payload: z.object({}),
  schedule: "* * * * *",
});
