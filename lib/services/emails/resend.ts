/** Sending an email of the log again (POST /emails/{email_id}/resend). */
import { getJson, query, type RawJson, sqlTransaction, ts } from "../../db/sql.ts";
import { ApiError, notFound } from "../../errors.ts";
import type { AccountSettings } from "../../schemas/account-settings.ts";
import type { EmailSummary } from "../../schemas/email.ts";
import { getAccountSettings } from "../account-settings.ts";
import { customerEmails, type EventRow } from "./events.ts";
import { EMAIL_SUMMARY } from "./list.ts";
import { queueDelivery, recordEmail } from "./outbox.ts";
import { branding, customerOf, portalLinkOrThrow } from "./recipients.ts";
import { type EmailContent, type EmailTemplate, portalLinkEmail } from "./templates.ts";

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
    const created = await recordEmail(
      {
        eventId: null,
        eventType: email.event_type,
        entityId: email.entity_id,
        template: email.template as EmailTemplate,
        to: email.to_address,
        content,
      },
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
