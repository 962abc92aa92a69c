/** The customer emails and email-destination emails of one event (queued by the trigger on events). */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const sendEventEmailsJob = defineJob({
  id: "send_event_emails",
  payload: z.object({ event_id: z.string() }),
});
