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
 *   ends (or at once for a shorter trial); it is sent only if the subscription is still trialing
 *   then, with the same end.
 * - subscription.canceled: "subscription canceled".
 * Email notification destinations (type `email`) subscribed to the event type get a short email each.
 * Decision: emails go to the customer's current email (the customers row), falling back to the
 * transaction's snapshot; a customer without one is not emailed. The job reads the event's data
 * (the entity as it was when the event was written), so a late job still describes that moment.
 */
import { addInterval, type CalendarInterval } from "../../billing/billing-dates.ts";
import { config } from "../../config.ts";
import { query, sqlTransaction } from "../../db/sql.ts";
import { invoiceUnavailableReason } from "../../documents/invoice-data.ts";
import { documentDate, documentMoney } from "../../documents/print-format.ts";
import { ApiError } from "../../errors.ts";
import { EVENT_TYPES } from "../../events/catalogue.ts";
import { sendTrialEndingEmailJob } from "../../events/jobs/send-trial-ending-email.ts";
import type { AccountSettings } from "../../schemas/account-settings.ts";
import type { Transaction } from "../../schemas/transaction.ts";
import { absoluteLogoUrl, getAccountSettings } from "../account-settings.ts";
import { hostedInvoiceUrlFor } from "../hosted-invoices.ts";
import { createPortalSession } from "../portal/sessions.ts";
import { deliverEmails, type OutgoingEmail, queueDelivery, recordEmails } from "./outbox.ts";
import {
  invoiceIssuedEmail,
  invoicePastDueEmail,
  notificationEmail,
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
    switch (event.event_type) {
      case "transaction.billed":
        if (t.collection_mode !== "manual" || !hasInvoice) return [];
        return [
          {
            ...base,
            template: "invoice_issued",
            to: customer.email,
            content: invoiceIssuedEmail(await invoiceFacts()),
          },
        ];
      case "transaction.past_due":
        if (t.collection_mode !== "manual" || !hasInvoice) return [];
        return [
          {
            ...base,
            template: "invoice_past_due",
            to: customer.email,
            content: invoicePastDueEmail(await invoiceFacts()),
          },
        ];
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

function dashboardLink(entityId: string): string | null {
  const areas: Record<string, string> = { txn: "transactions", sub: "subscriptions", ctm: "customers" };
  const area = areas[entityId.split("_")[0]];
  return area ? `${config.publicUrl}/${area}/${encodeURIComponent(entityId)}` : null;
}

async function destinationEmails(event: EventRow): Promise<OutgoingEmail[]> {
  const destinations = await query<{ id: string; description: string; destination: string }>(
    `SELECT id, description, destination FROM notification_settings
      WHERE active AND type = 'email' AND traffic_source IN ('platform', 'all') AND $1 = ANY(subscribed_events)
      ORDER BY id`,
    [event.event_type],
  );
  const description = EVENT_TYPES.find((type) => type.name === event.event_type)?.description ?? event.event_type;
  return destinations.map((d) => ({
    eventId: event.id,
    eventType: event.event_type,
    entityId: event.entity_id,
    notificationSettingId: d.id,
    template: "notification",
    to: d.destination,
    content: notificationEmail({
      eventType: event.event_type,
      description,
      entityId: event.entity_id,
      eventId: event.id,
      occurredAt: event.occurred_at,
      destination: d.description,
      dashboardLink: dashboardLink(event.entity_id),
    }),
  }));
}

/** Schedules the trial-ending reminder of a subscription that entered its trial (job key: one per subscription). */
async function scheduleTrialEnding(event: EventRow): Promise<void> {
  const endsAt = event.data.next_billed_at ?? event.data.current_billing_period?.ends_at;
  if (typeof endsAt !== "string") return;
  const runAt = new Date(Date.parse(endsAt) - TRIAL_REMINDER_DAYS * 86_400_000);
  await query(
    `SELECT graphile_worker.add_job($1, json_build_object('event_id', $2::text, 'subscription_id', $3::text, 'trial_ends_at', $4::text),
       run_at := greatest(now(), $5::timestamptz), job_key := $6, max_attempts := 25)`,
    [sendTrialEndingEmailJob.id, event.id, event.entity_id, endsAt, runAt, `trial_ending:${event.entity_id}`],
  );
}

/** The `send_event_emails` job: writes the event's emails (once) and delivers them. */
export async function sendEventEmails(eventId: string): Promise<void> {
  const [event] = await query<EventRow>(
    `SELECT id, event_type, entity_id, data,
            to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at
       FROM events WHERE id = $1`,
    [eventId],
  );
  if (!event) return;
  if (event.event_type === "subscription.trialing") await scheduleTrialEnding(event);
  const settings = await getAccountSettings();
  const emails = [
    ...(await customerEmails(event, settings.merchant_name, branding(settings))),
    ...(await destinationEmails(event)),
  ];
  await deliverEmails(await recordEmails(emails));
}

/** The `send_trial_ending_email` job: the reminder, if the subscription is still in that trial. */
export async function sendTrialEndingEmail(payload: {
  event_id: string;
  subscription_id: string;
  trial_ends_at: string;
}): Promise<void> {
  const [sub] = await query<{ status: string; customer_id: string; next_billed_at: Date | null }>(
    "SELECT status, customer_id, next_billed_at FROM subscriptions WHERE id = $1",
    [payload.subscription_id],
  );
  if (sub?.status !== "trialing") return;
  if (sub.next_billed_at && sub.next_billed_at.getTime() !== Date.parse(payload.trial_ends_at)) return;
  const customer = await customerOf(sub.customer_id);
  if (!customer) return;
  const settings = await getAccountSettings();
  const ids = await recordEmails([
    {
      eventId: payload.event_id,
      eventType: "subscription.trialing",
      entityId: payload.subscription_id,
      template: "trial_ending",
      to: customer.email,
      content: trialEndingEmail({
        merchant: settings.merchant_name,
        logoUrl: branding(settings).logoUrl,
        customerName: customer.name,
        endsOn: documentDate(payload.trial_ends_at, settings.timezone),
        link: await portalLink(sub.customer_id),
      }),
    },
  ]);
  await deliverEmails(ids);
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
