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

import { addInterval, type CalendarInterval } from "../../billing/billing-dates.ts";
import { PAYMENT_ERRORS } from "../../billing/payments.ts";
import { pool } from "../../db/connection.ts";
import { checkoutUrl, recurringItemsSql } from "../../db/entities/transaction.ts";
import { getJson, query, type RawJson, sqlTransaction, ts } from "../../db/sql.ts";
import { invoiceUnavailableReason } from "../../documents/invoice-data.ts";
import { documentDate, documentMoney } from "../../documents/print-format.ts";
import { ApiError, notFound } from "../../errors.ts";
import { queueJob } from "../../events/jobs/job.ts";
import { sendTrialEndingEmailJob } from "../../events/jobs/send-trial-ending-email.ts";
import type { AccountSettings } from "../../schemas/account-settings.ts";
import type { EmailSummary } from "../../schemas/email.ts";
import type { Transaction } from "../../schemas/transaction.ts";
import { absoluteLogoUrl, getAccountSettings } from "../account-settings.ts";
import { hostedInvoiceUrlFor } from "../hosted-invoices.ts";
import { createPortalSession } from "../portal/sessions.ts";
import { EMAIL_SUMMARY } from "./list.ts";
import { deliverEmails, type OutgoingEmail, queueDelivery, recordEmails } from "./outbox.ts";
import {
  checkoutLinkEmail,
  type EmailContent,
  type EmailTemplate,
  invoiceIssuedEmail,
  invoicePastDueEmail,
  paymentFailedEmail,
  portalLinkEmail,
  receiptEmail,
  subscriptionCanceledEmail,
  trialEndingEmail,
} from "./templates.ts";

export const TRIAL_REMINDER_DAYS = 3;

interface EventRow {
  id: string;
  event_type: string;
  entity_id: string;
  occurred_at: string;
  data: Record<string, any>;
}

interface Recipient {
  email: string;
  name: string | null;
}

/**
 * The billing contacts of business `businessId` (the family's business `contacts`, "typically used
 * for sending invoices"): its current list, one each by address (case-insensitive), leaving out
 * the addresses in `except` (the customer's, already emailed).
 */
async function billingContactsOf(businessId: unknown, except: readonly string[]): Promise<Recipient[]> {
  if (typeof businessId !== "string") return [];
  const [row] = await query<{ contacts: { name?: string | null; email?: string }[] }>(
    "SELECT contacts FROM businesses WHERE id = $1",
    [businessId],
  );
  const seen = new Set(except.map((address) => address.toLowerCase()));
  const contacts: Recipient[] = [];
  for (const contact of Array.isArray(row?.contacts) ? row.contacts : []) {
    if (typeof contact?.email !== "string" || contact.email === "") continue;
    const key = contact.email.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    contacts.push({ email: contact.email, name: contact.name || null });
  }
  return contacts;
}

async function customerOf(
  customerId: unknown,
  snapshot?: { email?: string; name?: string | null },
): Promise<Recipient | null> {
  if (typeof customerId !== "string") return null;
  const [row] = await query<{ email: string | null; name: string | null }>(
    "SELECT email, name FROM customers WHERE id = $1",
    [customerId],
  );
  const email = row?.email ?? snapshot?.email ?? null;
  return email ? { email, name: row?.name ?? snapshot?.name ?? null } : null;
}

function dueDate(t: Transaction, timeZone: string): string | null {
  const terms = t.billing_details?.payment_terms;
  if (!t.billed_at || !terms) return null;
  return documentDate(
    addInterval(new Date(t.billed_at), terms.interval as CalendarInterval, terms.frequency),
    timeZone,
  );
}

/** The merchant's look in emails: its logo (absolute URL) and the zone its dates are printed in. */
function branding(settings: AccountSettings): { logoUrl: string | null; timeZone: string } {
  return { logoUrl: absoluteLogoUrl(settings.logo_url), timeZone: settings.timezone };
}

/** A portal link (24 hours) for the customer, to the subscription's payment method page when given. */
async function portalLink(customerId: string, subscriptionId?: string | null): Promise<string | null> {
  try {
    const session = await createPortalSession(customerId, { subscription_ids: subscriptionId ? [subscriptionId] : [] });
    return subscriptionId
      ? (session.urls.subscriptions[0]?.update_subscription_payment_method ?? session.urls.general.overview)
      : session.urls.general.overview;
  } catch {
    return null;
  }
}

async function customerEmails(
  event: EventRow,
  merchant: string,
  { logoUrl, timeZone }: ReturnType<typeof branding>,
): Promise<OutgoingEmail[]> {
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
      dueDate: dueDate(t, timeZone),
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

/**
 * POST /customers/{customer_id}/portal-link-email (ours): emails the customer a portal link (24
 * hours). The email is written and its delivery queued in one transaction; answers the email.
 */
export async function emailPortalLink(customerId: string): Promise<{ id: string; to: string; status: string }> {
  const link = await portalLinkOrThrow(customerId);
  const customer = await customerOf(customerId);
  if (!customer)
    throw new ApiError("bad_request", `Customer ${customerId} has no email address to send the portal link to.`);
  const settings = await getAccountSettings();
  return sqlTransaction(async (client) => {
    const [id] = await recordEmails(
      [
        {
          eventId: null,
          eventType: null,
          entityId: customerId,
          template: "portal_link",
          to: customer.email,
          content: portalLinkEmail({
            merchant: settings.merchant_name,
            logoUrl: branding(settings).logoUrl,
            customerName: customer.name,
            link,
          }),
        },
      ],
      client,
    );
    await queueDelivery(client, [id]);
    return { id, to: customer.email, status: "pending" };
  });
}

async function portalLinkOrThrow(customerId: string): Promise<string> {
  const session = await createPortalSession(customerId, { subscription_ids: [] });
  return session.urls.general.overview;
}

/** What the payment-failed email says of the latest attempt's error code. */
function failureWords(code: string | null): { reason: string | null; needsAuthentication: boolean } {
  if (code === "authentication_failed") return { reason: null, needsAuthentication: true };
  const words = code ? PAYMENT_ERRORS[code as keyof typeof PAYMENT_ERRORS]?.customer : null;
  return { reason: words ?? null, needsAuthentication: false };
}

/**
 * POST /transactions/{transaction_id}/checkout-email (ours): emails the customer the hosted
 * checkout of a ready, automatically-collected transaction (the dashboard's "New subscription" →
 * "Email a checkout link"). The email is written and its delivery queued in one transaction.
 */
export async function emailCheckoutLink(transactionId: string): Promise<{ id: string; to: string; status: string }> {
  const [t] = await query<{
    status: string;
    collection_mode: string;
    customer_id: string | null;
    currency_code: string;
    grand_total: string;
    recurring: boolean;
  }>(
    `SELECT t.status, t.collection_mode, t.customer_id, t.currency_code, t.details->'totals'->>'grand_total' AS grand_total,
            ${recurringItemsSql("t")} AS recurring
       FROM transactions t WHERE t.id = $1`,
    [transactionId],
  );
  if (!t) throw notFound(transactionId);
  if (t.status !== "ready" || t.collection_mode !== "automatic") {
    throw new ApiError(
      "transaction_not_payable",
      `Transaction ${transactionId} is ${t.status}${t.collection_mode === "manual" ? " and manually collected" : ""}: only a ready, automatically-collected transaction is paid at the checkout. Issue an invoice instead.`,
    );
  }
  const customer = await customerOf(t.customer_id);
  if (!customer) {
    throw new ApiError("bad_request", `Transaction ${transactionId} has no customer email to send the link to.`);
  }
  const settings = await getAccountSettings();
  const link = checkoutUrl(transactionId);
  return sqlTransaction(async (client) => {
    const [id] = await recordEmails(
      [
        {
          eventId: null,
          eventType: null,
          entityId: transactionId,
          template: "checkout_link",
          to: customer.email,
          content: checkoutLinkEmail({
            merchant: settings.merchant_name,
            logoUrl: branding(settings).logoUrl,
            customerName: customer.name,
            link,
            total: documentMoney(t.grand_total, t.currency_code),
            recurring: t.recurring,
          }),
        },
      ],
      client,
    );
    await queueDelivery(client, [id]);
    return { id, to: customer.email, status: "pending" };
  });
}

/** Templates whose emails are not resent: their one-time link is gone (team_invite), or they are a notification's delivery. */
const NOT_RESENT: Record<string, string> = {
  team_invite:
    "A team invitation's link is shown once and stored masked: invite the person again from the Team page instead.",
  notification:
    "This email delivers a notification to an email destination: replay the notification from the Notifications log instead.",
};

/**
 * POST /emails/{email_id}/resend (ours): sends an email again, to the same address, as a new email
 * of the log (the first one keeps its status and time). Written afresh where it can be, so its
 * links work again (a portal link lasts 24 hours): an event's customer email from the event, a
 * portal link with a new session; otherwise (a trial reminder) the stored text and HTML. The copy
 * keeps the template, event type and entity but not the event ID: the log holds one email per
 * event, template and address, and a resend is a person's act, not the event's. Written and queued
 * in one transaction; answers the new email's summary.
 */
export async function resendEmail(id: string): Promise<RawJson<EmailSummary>> {
  const [email] = await query<{
    template: string;
    to_address: string;
    event_id: string | null;
    event_type: string | null;
    entity_id: string | null;
    notification_id: string | null;
    subject: string;
    text_body: string;
    html_body: string;
  }>(
    `SELECT template, to_address, event_id, event_type, entity_id, notification_id, subject, text_body, html_body
       FROM emails WHERE id = $1`,
    [id],
  );
  if (!email) throw notFound(id);
  const refusal = NOT_RESENT[email.template] ?? (email.notification_id ? NOT_RESENT.notification : null);
  if (refusal) throw new ApiError("bad_request", `Email ${id} cannot be resent. ${refusal}`);
  const settings = await getAccountSettings();
  const content = (await freshContent(email, settings)) ?? {
    subject: email.subject,
    text: email.text_body,
    html: email.html_body,
  };
  const newIdValue = await sqlTransaction(async (client) => {
    const [created] = await recordEmails(
      [
        {
          eventId: null,
          eventType: email.event_type,
          entityId: email.entity_id,
          template: email.template as EmailTemplate,
          to: email.to_address,
          content,
        },
      ],
      client,
    );
    await queueDelivery(client, [created]);
    return created;
  });
  const summary = await getJson(EMAIL_SUMMARY, "t.id = $1", [newIdValue]);
  if (!summary) throw notFound(newIdValue);
  return summary;
}

/** The email written again now (fresh links), or null when it cannot be and the stored one is sent. */
async function freshContent(
  email: { template: string; to_address: string; event_id: string | null; entity_id: string | null },
  settings: AccountSettings,
): Promise<EmailContent | null> {
  const to = email.to_address.toLowerCase();
  if (email.template === "portal_link" && email.entity_id) {
    const customer = await customerOf(email.entity_id);
    const link = await portalLinkOrThrow(email.entity_id).catch(() => null);
    if (!link) return null;
    return portalLinkEmail({
      merchant: settings.merchant_name,
      logoUrl: branding(settings).logoUrl,
      customerName: customer?.email.toLowerCase() === to ? customer.name : null,
      link,
    });
  }
  if (!email.event_id) return null;
  const [event] = await query<EventRow>(
    `SELECT id, event_type, entity_id, data, ${ts("occurred_at")} AS occurred_at FROM events WHERE id = $1`,
    [email.event_id],
  );
  if (!event) return null;
  const written = await customerEmails(event, settings.merchant_name, branding(settings));
  return written.find((e) => e.template === email.template && e.to.toLowerCase() === to)?.content ?? null;
}
