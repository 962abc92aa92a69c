/** Every minute: unpaid manual invoices past their due date become past_due. */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const markPastDueJob = defineJob({
  id: "mark_past_due",
  payload: z.object({}),
  schedule: "* * * * *",
});
