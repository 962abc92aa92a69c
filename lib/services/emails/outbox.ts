/**
 * The `emails` table: every email is written there first (in the caller's transaction, or by the
 * job of its event), then delivered: sent through SMTP (status `sent`, or `failed` with the
 * server's answer, retried by the job queue), or, without SMTP_URL, kept as `logged`.
 */
import { type Queryable, query } from "../../db/sql.ts";
import { deliverEmailsJob } from "../../events/jobs/deliver-emails.ts";
import { queueJob } from "../../events/jobs/job.ts";
import { newId } from "../../ids.ts";
import type { AccountSettings } from "../../schemas/account-settings.ts";
import { getAccountSettings } from "../account-settings.ts";
import type { EmailContent, EmailTemplate } from "./templates.ts";
import { fromAddress, smtpUrl, transportFor } from "./transport.ts";

/**
 * Links that are secrets to whoever reads the Emails log (GET /emails/{id}: `notification.read`,
 * which viewers and developers hold) rather than only to the recipient: a team invitation's
 * one-time link (`/invite/<token>`) signs its holder in with the invited role, an owner's for
 * instance. Its email is stored whole only until it is delivered (SMTP needs the link), read with
 * the token masked (`maskedBody`), and stored masked once sent or logged (`SCRUB`): the token then
 * exists only in the invitee's mailbox and, shown once, on the inviting owner's screen. Without
 * SMTP the owner copies the link from the Team page. (Portal links in customer emails stay
 * readable: they open a customer's own billing portal for 24 hours, no dashboard access.)
 */
const SECRET_LINK = "'/invite/[A-Za-z0-9_-]+'";
const MASK = "'/invite/[link hidden: shown once to the inviter]'";

/** The SQL of a stored body with its secret links masked (emails of secret-bearing templates). */
export function maskedBody(alias: string, column: "text_body" | "html_body"): string {
  return `CASE WHEN ${alias}.template = 'team_invite' THEN regexp_replace(${alias}.${column}, ${SECRET_LINK}, ${MASK}, 'g') ELSE ${alias}.${column} END`;
}

/** SET clause masking the secret links of a delivered email (nothing needs them any more). */
const SCRUB = `text_body = ${maskedBody("emails", "text_body")}, html_body = ${maskedBody("emails", "html_body")}`;

export interface OutgoingEmail {
  template: EmailTemplate;
  to: string;
  content: EmailContent;
  eventId: string | null;
  eventType: string | null;
  entityId: string | null;
  notificationSettingId?: string | null;
}

/**
 * Writes the emails (one per event, template and recipient: a job run again writes none twice)
 * and returns the IDs of those still to deliver (new, or failed before).
 */
export async function recordEmails(emails: readonly OutgoingEmail[], on?: Queryable): Promise<string[]> {
  const ids: string[] = [];
  for (const email of emails) {
    const [row] = await query<{ id: string }>(
      `WITH inserted AS (
         INSERT INTO emails (id, event_id, event_type, template, notification_setting_id, entity_id, to_address,
                             subject, text_body, html_body)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (event_id, template, to_address) WHERE notification_id IS NULL DO NOTHING RETURNING id)
       SELECT id FROM inserted
       UNION ALL
       SELECT id FROM emails WHERE event_id = $2 AND template = $4 AND to_address = $7 AND notification_id IS NULL
                               AND status IN ('pending', 'failed')`,
      [
        newId("eml"),
        email.eventId,
        email.eventType,
        email.template,
        email.notificationSettingId ?? null,
        email.entityId,
        email.to,
        email.content.subject,
        email.content.text,
        email.content.html,
      ],
      on,
    );
    if (row) ids.push(row.id);
  }
  return ids;
}

/**
 * Writes one email that answers no event (a link sent on request, a resend) and returns its ID.
 * With no event_id it conflicts with no other email (the unique index treats NULLs as distinct), so
 * it is always written: no ID is our bug.
 */
export async function recordEmail(email: OutgoingEmail & { eventId: null }, on?: Queryable): Promise<string> {
  const [id] = await recordEmails([email], on);
  if (id === undefined) throw new Error(`a ${email.template} email of no event was not written`);
  return id;
}

/** Queues the delivery of emails written in the caller's transaction. */
export async function queueDelivery(on: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await queueJob(on, deliverEmailsJob, { ids: [...ids] });
}

/**
 * Delivers the emails `ids` that are still to deliver. Throws after trying them all if any SMTP
 * send failed, so the job queue tries again later (with its backoff); a sent one is not resent.
 * `settings`: the account settings the caller already read (the sender's name and address), so a
 * job that wrote the emails reads them once.
 */
export async function deliverEmails(ids: readonly string[], settings?: AccountSettings): Promise<void> {
  if (ids.length === 0) return;
  const url = smtpUrl();
  if (!url) {
    await query(
      `UPDATE emails SET status = 'logged', attempts = attempts + 1, ${SCRUB}
        WHERE id = ANY($1) AND status IN ('pending', 'failed')`,
      [ids],
    );
    return;
  }
  const { merchant_name, merchant_email } = settings ?? (await getAccountSettings());
  const from = fromAddress(merchant_name, merchant_email);
  const failures: string[] = [];
  for (const id of ids) {
    const [email] = await query<{ to_address: string; subject: string; text_body: string; html_body: string }>(
      `UPDATE emails SET attempts = attempts + 1 WHERE id = $1 AND status IN ('pending', 'failed')
       RETURNING to_address, subject, text_body, html_body`,
      [id],
    );
    if (!email) continue;
    try {
      await transportFor(url).sendMail({
        from,
        to: email.to_address,
        replyTo: merchant_email ?? undefined,
        subject: email.subject,
        text: email.text_body,
        html: email.html_body,
      });
      await query(`UPDATE emails SET status = 'sent', sent_at = now(), error = NULL, ${SCRUB} WHERE id = $1`, [id]);
    } catch (error) {
      const message = (error as Error).message.slice(0, 1000);
      await query("UPDATE emails SET status = 'failed', error = $2 WHERE id = $1", [id, message]);
      failures.push(`${id}: ${message}`);
    }
  }
  if (failures.length > 0) throw new Error(`SMTP refused ${failures.length} email(s): ${failures.join("; ")}`);
}
