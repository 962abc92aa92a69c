/** Delivers emails already written (the portal link), through SMTP or into the sandbox's log. */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const deliverEmailsJob = defineJob({
  id: "deliver_emails",
  payload: z.object({ ids: z.array(z.string()) }),
  maxAttempts: 25,
});
