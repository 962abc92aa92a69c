/**
 * What is emailed about an event (the `send_event_emails` job, queued by the trigger on `events`
 * in the writer's transaction):
 *
 * - transaction.billed, manual collection: "invoice issued" with the hosted invoice page's link.
 * - transaction.completed, a non-zero total: the receipt (with the hosted page, which shows it paid).
 * - transaction.payment_failed of a subscription's charge (automatic collection): "payment failed",
 *   with a portal link to update the payment method. Each dunning retry that fails writes this
 *   event again, so each one is a reminder. A card declined at checkout, while the customer
 *   watches, is not emailed (the page says it).
 * - transaction.past_due, manual collection: the overdue reminder of an invoice.
 * - subscription.trialing: schedules the trial-ending reminder TRIAL_REMINDER_DAYS before the trial
 *   ends (or at once for a shorter trial), on the subscription's own clock (see `trialReminder`); it
 *   is sent only if the subscription is still trialing then.
 * - subscription.canceled: "subscription canceled".
 * Email notification destinations (type `email`) are not emailed here: their events become
 * notifications, delivered as emails (notification-emails.ts) and listed in the Notifications log.
 * Decision: emails go to the customer's current email (the customers row), falling back to the
 * transaction's snapshot; a customer without one is not emailed. An invoice (issued, past due) also
 * goes to the current billing contacts of the transaction's business, one email each. The job reads the event's data
 * (the entity as it was when the event was written), so a late job still describes that moment.
 */

import { invoiceDueDate, PAYMENT_ERRORS } from "../../billing/payments.ts";
import { pool } from "../../db/connection.ts";
import { query, sqlTransaction, ts } from "../../db/sql.ts";
import { invoiceUnavailableReason } from "../../documents/invoice-data.ts";
import { documentDate, documentMoney } from "../../documents/print-format.ts";
import { queueJob } from "../../events/jobs/job.ts";
import { sendTrialEndingEmailJob } from "../../events/jobs/send-trial-ending-email.ts";
import type { Transaction } from "../../schemas/transaction.ts";
import { getAccountSettings } from "../account-settings.ts";
import { hostedInvoiceUrlFor } from "../hosted-invoices.ts";
import { deliverEmails, type OutgoingEmail, queueDelivery, recordEmails } from "./outbox.ts";
import { billingContactsOf, branding, customerOf, portalLink } from "./recipients.ts";
import {
  invoiceIssuedEmail,
  invoicePastDueEmail,
  isEmailedEventType,
  paymentFailedEmail,
  receiptEmail,
  subscriptionCanceledEmail,
  trialEndingEmail,
} from "./templates.ts";

export const TRIAL_REMINDER_DAYS = 3;

export interface EventRow {
  id: string;
  event_type: string;
  entity_id: string;
  occurred_at: string;
  data: Record<string, any>;
}

/** The invoice's due date as the email prints it (null without terms). */
function dueDateText(t: Transaction, timeZone: string): string | null {
  const due = t.billed_at ? invoiceDueDate(t.billed_at, t.billing_details) : null;
  return due && documentDate(due, timeZone);
}

export async function customerEmails(
  event: EventRow,
  merchant: string,
  { logoUrl, timeZone }: ReturnType<typeof branding>,
): Promise<OutgoingEmail[]> {
  if (!isEmailedEventType(event.event_type)) return [];
  const data = event.data;
  const base = { eventId: event.id, eventType: event.event_type, entityId: event.entity_id };
  if (event.event_type.startsWith("transaction.")) {
    const t = data as Transaction & { customer?: { email?: string; name?: string | null } };
    const customer = await customerOf(t.customer_id);
    if (!customer) return [];
    const money = (amount: string) => documentMoney(amount, t.currency_code);
    const hasInvoice = invoiceUnavailableReason(t) === null;
    const invoiceFacts = async () => ({
      merchant,
      logoUrl,
      customerName: customer.name,
      invoiceNumber: t.invoice_number as string,
      amount: money(t.details.totals.balance),
      dueDate: dueDateText(t, timeZone),
      link: await hostedInvoiceUrlFor(t.id),
    });
    // An invoice (issued, or its past-due reminder) goes to the customer and to the billing
    // contacts of the business it is made out to, each addressed by their own name.
    const invoiceEmails = async (
      template: "invoice_issued" | "invoice_past_due",
      compose: typeof invoiceIssuedEmail,
    ): Promise<OutgoingEmail[]> => {
      const facts = await invoiceFacts();
      const recipients = [customer, ...(await billingContactsOf(t.business_id, [customer.email]))];
      return recipients.map((recipient) => ({
        ...base,
        template,
        to: recipient.email,
        content: compose({ ...facts, customerName: recipient.name }),
      }));
    };
    switch (event.event_type) {
      case "transaction.billed":
        if (t.collection_mode !== "manual" || !hasInvoice) return [];
        return invoiceEmails("invoice_issued", invoiceIssuedEmail);
      case "transaction.past_due":
        if (t.collection_mode !== "manual" || !hasInvoice) return [];
        return invoiceEmails("invoice_past_due", invoicePastDueEmail);
      case "transaction.completed":
        if (/^0+$/.test(t.details.totals.grand_total)) return [];
        return [
          {
            ...base,
            template: "receipt",
            to: customer.email,
            content: receiptEmail({
              merchant,
              logoUrl,
              customerName: customer.name,
              amount: money(t.details.totals.grand_total),
              invoiceNumber: t.invoice_number,
              paidOn: documentDate(event.occurred_at, timeZone),
              link: hasInvoice ? await hostedInvoiceUrlFor(t.id) : null,
            }),
          },
        ];
      case "transaction.payment_failed":
        if (!t.subscription_id || t.collection_mode !== "automatic") return [];
        return [
          {
            ...base,
            template: "payment_failed",
            to: customer.email,
            content: paymentFailedEmail({
              merchant,
              logoUrl,
              customerName: customer.name,
              amount: money(t.details.totals.balance),
              link: await portalLink(t.customer_id as string, t.subscription_id),
              ...failureWords(t.payments?.[0]?.error_code ?? null),
            }),
          },
        ];
      default:
        return [];
    }
  }
  if (event.event_type === "subscription.canceled") {
    const customer = await customerOf(data.customer_id);
    if (!customer) return [];
    return [
      {
        ...base,
        template: "subscription_canceled",
        to: customer.email,
        content: subscriptionCanceledEmail({ merchant, logoUrl, customerName: customer.name }),
      },
    ];
  }
  return [];
}

/** The trial-ending reminder job of a subscription (job key: one per subscription), at `runAt` (real time). */
async function scheduleTrialReminder(
  eventId: string,
  subscriptionId: string,
  /** The trial's end (RFC 3339): informational, the job reads the subscription's current dates. */
  endsAt: string,
  runAt: Date,
): Promise<void> {
  await queueJob(
    pool(),
    sendTrialEndingEmailJob,
    { event_id: eventId, subscription_id: subscriptionId, trial_ends_at: endsAt },
    { runAt, jobKey: `trial_ending:${subscriptionId}` },
  );
}

/** The subscription's "now": real time, or its sandbox test clock when moved ahead of it (subscriptions/billing.ts). */
function clockOf(sub: { clock_at: Date | null }, real = new Date()): Date {
  return sub.clock_at && sub.clock_at.getTime() > real.getTime() ? sub.clock_at : real;
}

/** When the reminder of a trial ending at `endsAt` is due. */
export function trialReminderAt(endsAt: Date): Date {
  return new Date(endsAt.getTime() - TRIAL_REMINDER_DAYS * 86_400_000);
}

/**
 * Schedules the trial-ending reminder of a subscription that entered its trial. Due at its trial
 * end minus TRIAL_REMINDER_DAYS on the subscription's clock: at that real time (a clock moved ahead
 * never runs behind real time, so the real moment its clock reaches a later instant is that
 * instant), or at once when its clock is already past it (a short trial, or a clock moved ahead).
 * Moving the test clock past it sends it from the clock's advance (`remindTrialEndingBy`).
 */
async function scheduleTrialEnding(event: EventRow): Promise<void> {
  const endsAt = event.data.next_billed_at ?? event.data.current_billing_period?.ends_at;
  if (typeof endsAt !== "string") return;
  const [sub] = await query<{ clock_at: Date | null }>("SELECT clock_at FROM subscriptions WHERE id = $1", [
    event.entity_id,
  ]);
  const remindAt = trialReminderAt(new Date(endsAt));
  const now = clockOf(sub ?? { clock_at: null });
  await scheduleTrialReminder(event.id, event.entity_id, endsAt, remindAt <= now ? new Date() : remindAt);
}

/** The `send_event_emails` job: writes the event's emails (once) and delivers them. */
export async function sendEventEmails(eventId: string): Promise<void> {
  const [event] = await query<EventRow>(
    `SELECT id, event_type, entity_id, data, ${ts("occurred_at")} AS occurred_at FROM events WHERE id = $1`,
    [eventId],
  );
  if (!event) return;
  if (event.event_type === "subscription.trialing") await scheduleTrialEnding(event);
  const settings = await getAccountSettings();
  const ids = await recordEmails(await customerEmails(event, settings.merchant_name, branding(settings)));
  await deliverEmails(ids, settings);
}

/**
 * The trial-ending reminder of subscription `subscriptionId` (whose trial began with event
 * `eventId`), decided from the subscription's own dates as of `at` (default: its clock, real time or
 * its sandbox test clock when moved ahead):
 * - no longer trialing (activated, canceled, paused): skipped, for good;
 * - trialing, reminder not yet due (trial end minus TRIAL_REMINDER_DAYS after `at`, e.g. the trial
 *   was extended): the job is scheduled again for then;
 * - trialing and due: the reminder, naming the trial's current end. Written once per trial (per
 *   `subscription.trialing` event): the job and the clock's advance may both come to it.
 * `deliver`: "now" sends it at once (the job), "queue" queues its delivery (the clock's advance, an
 * API request, does not wait for SMTP).
 */
async function trialReminder(
  subscriptionId: string,
  eventId: string,
  at: Date | null,
  deliver: "now" | "queue",
): Promise<"sent" | "scheduled" | "skipped"> {
  const [sub] = await query<{
    status: string;
    customer_id: string;
    next_billed_at: Date | null;
    clock_at: Date | null;
  }>("SELECT status, customer_id, next_billed_at, clock_at FROM subscriptions WHERE id = $1", [subscriptionId]);
  if (sub?.status !== "trialing" || !sub.next_billed_at) return "skipped";
  const remindAt = trialReminderAt(sub.next_billed_at);
  if ((at ?? clockOf(sub)).getTime() < remindAt.getTime()) {
    await scheduleTrialReminder(eventId, subscriptionId, sub.next_billed_at.toISOString(), remindAt);
    return "scheduled";
  }
  const customer = await customerOf(sub.customer_id);
  if (!customer) return "skipped";
  const settings = await getAccountSettings();
  const email: OutgoingEmail = {
    eventId,
    eventType: "subscription.trialing",
    entityId: subscriptionId,
    template: "trial_ending",
    to: customer.email,
    content: trialEndingEmail({
      merchant: settings.merchant_name,
      logoUrl: branding(settings).logoUrl,
      customerName: customer.name,
      endsOn: documentDate(sub.next_billed_at.toISOString(), settings.timezone),
      link: await portalLink(sub.customer_id),
    }),
  };
  if (deliver === "now") {
    await deliverEmails(await recordEmails([email]), settings);
  } else {
    await sqlTransaction(async (client) => queueDelivery(client, await recordEmails([email], client)));
  }
  return "sent";
}

/** The `send_trial_ending_email` job: the reminder, if the subscription is still in its trial and it is due. */
export async function sendTrialEndingEmail(payload: {
  event_id: string;
  subscription_id: string;
  trial_ends_at: string;
}): Promise<"sent" | "scheduled" | "skipped"> {
  return trialReminder(payload.subscription_id, payload.event_id, null, "now");
}

/**
 * The sandbox test clock of subscription `subscriptionId` reached `at` (lib/services/subscriptions/
 * engine.ts advanceClock, before it runs what falls due after `at`): the trial-ending reminder if it
 * is due by then, as the job would have sent it at that time. Nothing for a subscription not trialing.
 */
export async function remindTrialEndingBy(subscriptionId: string, at: Date): Promise<"sent" | "scheduled" | "skipped"> {
  const [event] = await query<{ id: string }>(
    `SELECT id FROM events WHERE entity_id = $1 AND event_type = 'subscription.trialing' ORDER BY id DESC LIMIT 1`,
    [subscriptionId],
  );
  if (!event) return "skipped";
  return trialReminder(subscriptionId, event.id, at, "queue");
}

/** What the payment-failed email says of the latest attempt's error code. */
function failureWords(code: string | null): { reason: string | null; needsAuthentication: boolean } {
  if (code === "authentication_failed") return { reason: null, needsAuthentication: true };
  const words = code ? PAYMENT_ERRORS[code as keyof typeof PAYMENT_ERRORS]?.customer : null;
  return { reason: words ?? null, needsAuthentication: false };
}
