/**
 * What each background job does: its declaration (lib/events/jobs/, what services import to queue
 * it) paired with its handler. This module sits above the services and imports them as any caller
 * does; the declarations import nothing of them, so no service and job import each other.
 */
import type { JobHelpers, Task } from "graphile-worker";
import type { z } from "zod";
import { purgeNotifications } from "../events/delivery.ts";
import { applyStripeEventJob } from "../events/jobs/apply-stripe-event.ts";
import { createStripeRefundJob } from "../events/jobs/create-stripe-refund.ts";
import { deliverEmailsJob } from "../events/jobs/deliver-emails.ts";
import { deliverNotificationJob } from "../events/jobs/deliver-notification.ts";
import { expireReportsJob } from "../events/jobs/expire-reports.ts";
import { generateReportJob } from "../events/jobs/generate-report.ts";
import type { Job } from "../events/jobs/job.ts";
import { markPastDueJob } from "../events/jobs/mark-past-due.ts";
import { purgeAuditLogJob } from "../events/jobs/purge-audit-log.ts";
import { purgeNotificationsJob } from "../events/jobs/purge-notifications.ts";
import { reconcilePaymentsJob } from "../events/jobs/reconcile-payments.ts";
import { runSimulationJob } from "../events/jobs/run-simulation.ts";
import { sendEventEmailsJob } from "../events/jobs/send-event-emails.ts";
import { sendTrialEndingEmailJob } from "../events/jobs/send-trial-ending-email.ts";
import { subscriptionsDueJob } from "../events/jobs/subscriptions-due.ts";
import { purgeIdempotencyKeys } from "../http/idempotency.ts";
import { purgeRateLimitCounters } from "../http/rate-limit.ts";
import { sendEventEmails, sendTrialEndingEmail } from "../services/emails/events.ts";
import { deliverEmails } from "../services/emails/outbox.ts";
import { deliverNotification } from "../services/notification-delivery.ts";
import { purgeCheckoutDeclines } from "../services/payments/declines.ts";
import { markPastDueTransactions } from "../services/payments/past-due.ts";
import { reconcileAttempts } from "../services/payments/reconcile.ts";
import { createStripeRefund } from "../services/payments/refunds.ts";
import { applyStoredStripeEvent } from "../services/payments/stripe-events.ts";
import { expireReports } from "../services/reports/expire.ts";
import { runReportJob } from "../services/reports/generate.ts";
import { processDueSubscriptions } from "../services/subscriptions/engine.ts";
import { purgeAuditLog } from "../services/team/audit-log.ts";
import { executeSimulationRun } from "../simulator/runner.ts";

/** A job as the worker runs it: its queue name, schedule, and the task that parses then handles. */
export interface RunnableJob {
  readonly id: string;
  readonly schedule?: string;
  readonly task: Task;
}

function handled<Schema extends z.ZodType>(
  job: Job<Schema>,
  handler: (payload: z.output<Schema>, helpers: JobHelpers) => Promise<unknown>,
): RunnableJob {
  return {
    id: job.id,
    schedule: job.schedule,
    task: async (payload, helpers) => {
      await handler(job.payload.parse(payload), helpers);
    },
  };
}

/** Every job the worker runs, in the order of lib/events/jobs/all.ts (the crontab keeps it). */
export const WORKER_JOBS: readonly RunnableJob[] = [
  handled(deliverNotificationJob, ({ id, attempt }) => deliverNotification(id, attempt)),
  handled(runSimulationJob, ({ id }) => executeSimulationRun(id)),
  // Hourly retention: notifications, and the records other layers keep for a while, each purged by
  // the layer that owns it: Idempotency-Key answers (24 h) and rate-limit counters of past minutes
  // (lib/http), the checkout's declined attempts (a day).
  handled(purgeNotificationsJob, async () => {
    await purgeNotifications();
    await purgeIdempotencyKeys();
    await purgeRateLimitCounters();
    await purgeCheckoutDeclines();
  }),
  handled(markPastDueJob, () => markPastDueTransactions()),
  handled(subscriptionsDueJob, () => processDueSubscriptions()),
  handled(generateReportJob, ({ id }, helpers) => runReportJob(id, helpers.job.attempts, helpers.job.max_attempts)),
  handled(expireReportsJob, () => expireReports()),
  handled(sendEventEmailsJob, ({ event_id }) => sendEventEmails(event_id)),
  handled(deliverEmailsJob, ({ ids }) => deliverEmails(ids)),
  handled(sendTrialEndingEmailJob, (payload) => sendTrialEndingEmail(payload)),
  handled(purgeAuditLogJob, () => purgeAuditLog()),
  handled(applyStripeEventJob, ({ event_id }) => applyStoredStripeEvent(event_id)),
  handled(createStripeRefundJob, ({ adjustment_id }) => createStripeRefund(adjustment_id)),
  handled(reconcilePaymentsJob, async () => {
    const report = await reconcileAttempts();
    if (report.settled + report.expired > 0) {
      console.error(
        `[payments] reconciliation: ${report.settled} settled, ${report.expired} expired, ${report.open} still open`,
      );
    }
  }),
];

/** The scheduled jobs (graphile-worker runs each cron item once across all workers). */
export const CRONTAB = WORKER_JOBS.filter((job) => job.schedule)
  .map((job) => `${job.schedule} ${job.id}`)
  .join("\n");
