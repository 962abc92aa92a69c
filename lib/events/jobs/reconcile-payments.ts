/**
 * Every minute: payment attempts left in doubt at Stripe (a crash between its answer and our
 * commit, a lost answer) are settled by asking Stripe (lib/payments/reconcile.ts).
 */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const reconcilePaymentsJob = defineJob({
  id: "reconcile_payments",
  payload: z.object({}),
  schedule: "* * * * *",
  async run() {
    const { reconcileAttempts } = await import("../../payments/reconcile.ts");
    const report = await reconcileAttempts();
    if (report.settled + report.expired > 0) {
      console.error(
        `[payments] reconciliation: ${report.settled} settled, ${report.expired} expired, ${report.open} still open`,
      );
    }
  },
});
