/**
 * Every minute: payment attempts left in doubt at Stripe (a crash between its answer and our
 * commit, a lost answer) are settled by asking Stripe (lib/services/payments/reconcile.ts).
 */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const reconcilePaymentsJob = defineJob({
  id: "reconcile_payments",
  payload: z.object({}),
  schedule: "* * * * *",
});
