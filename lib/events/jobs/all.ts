/**
 * Every background job's declaration, in the order of the worker's task list and crontab
 * (lib/worker/tasks.ts gives each its handler; a test checks that none is left without one).
 */
import type { z } from "zod";
import { applyStripeEventJob } from "./apply-stripe-event.ts";
import { createStripeRefundJob } from "./create-stripe-refund.ts";
import { deliverEmailsJob } from "./deliver-emails.ts";
import { deliverNotificationJob } from "./deliver-notification.ts";
import { expireReportsJob } from "./expire-reports.ts";
import { generateReportJob } from "./generate-report.ts";
import type { Job } from "./job.ts";
import { markPastDueJob } from "./mark-past-due.ts";
import { purgeAuditLogJob } from "./purge-audit-log.ts";
import { purgeNotificationsJob } from "./purge-notifications.ts";
import { reconcilePaymentsJob } from "./reconcile-payments.ts";
import { runSimulationJob } from "./run-simulation.ts";
import { sendEventEmailsJob } from "./send-event-emails.ts";
import { sendTrialEndingEmailJob } from "./send-trial-ending-email.ts";
import { subscriptionsDueJob } from "./subscriptions-due.ts";

export const JOBS: readonly Job<z.ZodType>[] = [
  deliverNotificationJob,
  runSimulationJob,
  purgeNotificationsJob,
  markPastDueJob,
  subscriptionsDueJob,
  generateReportJob,
  expireReportsJob,
  sendEventEmailsJob,
  deliverEmailsJob,
  sendTrialEndingEmailJob,
  purgeAuditLogJob,
  applyStripeEventJob,
  createStripeRefundJob,
  reconcilePaymentsJob,
];
