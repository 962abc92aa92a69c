/** The trial-ending reminder, run a few days before the trial ends (skipped if it no longer runs). */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const sendTrialEndingEmailJob = defineJob({
  id: "send_trial_ending_email",
  payload: z.object({ event_id: z.string(), subscription_id: z.string(), trial_ends_at: z.string() }),
  maxAttempts: 25,
});
