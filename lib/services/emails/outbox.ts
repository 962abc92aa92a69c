/**
 * The `emails` table: every email is written there first (in the caller's transaction, or by the
 * job of its event), then delivered: sent through SMTP (status `sent`, or `failed` with the
 * server's answer, retried by the job queue), or, without SMTP_URL, kept as `logged`.
 */
import { type Queryable, query } from "../../db/sql.ts";
import { deliverEmailsJob } from "../../events/jobs/deliver-emails.ts";
import { newId } from "../../ids.ts";
import { getAccountSettings } from "../account-settings.ts";
import type { EmailContent, EmailTemplate } from "./templates.ts";
import { fromAddress, smtpUrl, transportFor } from "./transport.ts";

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
         ON CONFLICT (event_id, template, to_address) DO NOTHING RETURNING id)
       SELECT id FROM inserted
       UNION ALL
       SELECT id FROM emails WHERE event_id = $2 AND template = $4 AND to_address = $7 AND status IN ('pending', 'failed')`,
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

/** Queues the delivery of emails written in the caller's transaction. */
export async function queueDelivery(on: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await query(
    `SELECT graphile_worker.add_job('${deliverEmailsJob.id}', json_build_object('ids', $1::text[]), max_attempts := 25)`,
    [ids],
    on,
  );
}

/**
 * Delivers the emails `ids` that are still to deliver. Throws after trying them all if any SMTP
 * send failed, so the job queue tries again later (with its backoff); a sent one is not resent.
 */
export async function deliverEmails(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const url = smtpUrl();
  if (!url) {
    await query(
      "UPDATE emails SET status = 'logged', attempts = attempts + 1 WHERE id = ANY($1) AND status IN ('pending', 'failed')",
      [ids],
    );
    return;
  }
  const settings = await getAccountSettings();
  const from = fromAddress(settings.merchant_name, settings.merchant_email);
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
        replyTo: settings.merchant_email ?? undefined,
        subject: email.subject,
        text: email.text_body,
        html: email.html_body,
      });
      await query("UPDATE emails SET status = 'sent', sent_at = now(), error = NULL WHERE id = $1", [id]);
    } catch (error) {
      const message = (error as Error).message.slice(0, 1000);
      await query("UPDATE emails SET status = 'failed', error = $2 WHERE id = $1", [id, message]);
      failures.push(`${id}: ${message}`);
    }
  }
  if (failures.length > 0) throw new Error(`SMTP refused ${failures.length} email(s): ${failures.join("; ")}`);
}
