/**
 * Email notification destinations (type `email`). Their events become notifications like a url
 * destination's (the fan-out trigger, migration `email_notifications`), so the Notifications log and
 * GET /notifications list them with their status, attempts and each attempt's outcome; the delivery
 * (lib/events/delivery.ts) hands an email destination's attempt to `sendNotificationEmail` instead of
 * an HTTP POST, and records its outcome, retries and final status exactly as for a webhook.
 *
 * Each notification has one email (emails.notification_id; a replay is a new notification, so a new
 * email): written at its first attempt, sent through SMTP at each attempt until one succeeds, and on
 * the Emails page like every email. What an attempt records (decisions, the API family is silent):
 * - sent: `response_code` is the SMTP server's reply code (250), `response_body` its reply line;
 * - refused or unreachable: `response_code` the SMTP reply code when there was one (550), `error`
 *   the server's answer; the notification is retried on the webhook schedule, then `failed`;
 * - no SMTP server configured (SMTP_URL unset, the sandbox): the email is kept in the Emails log
 *   (status `logged`), which is where this deployment delivers email, so the notification is
 *   `delivered`, its attempt saying so in `response_body` (no code: no server answered).
 */
import { config } from "../../config.ts";
import { query, queryExactlyOne, ts } from "../../db/sql.ts";
import { EVENT_TYPES } from "../../events/catalogue.ts";
import type { SendOutcome } from "../../events/send.ts";
import { newId } from "../../ids.ts";
import { getAccountSettings } from "../account-settings.ts";
import { notificationEmail } from "./templates.ts";
import { fromAddress, smtpUrl, transportFor } from "./transport.ts";

function dashboardLink(entityId: string): string | null {
  const areas: Record<string, string> = { txn: "transactions", sub: "subscriptions", ctm: "customers" };
  const area = areas[entityId.split("_", 1)[0] ?? ""];
  return area ? `${config.publicUrl}/${area}/${encodeURIComponent(entityId)}` : null;
}

interface NotificationFacts {
  event_id: string;
  event_type: string;
  entity_id: string;
  occurred_at: string;
  setting_id: string;
  description: string;
  address: string;
}

/** The notification's email, written once (at its first attempt); its ID. */
async function emailOf(notificationId: string): Promise<string | null> {
  const [existing] = await query<{ id: string }>("SELECT id FROM emails WHERE notification_id = $1", [notificationId]);
  if (existing) return existing.id;
  const [n] = await query<NotificationFacts>(
    `SELECT e.id AS event_id, e.event_type, e.entity_id,
            ${ts("e.occurred_at")} AS occurred_at,
            s.id AS setting_id, s.description, s.destination AS address
       FROM notifications n JOIN events e ON e.id = n.event_id
       JOIN notification_settings s ON s.id = n.notification_setting_id
      WHERE n.id = $1`,
    [notificationId],
  );
  if (!n) return null;
  const description = EVENT_TYPES.find((type) => type.name === n.event_type)?.description ?? n.event_type;
  const content = notificationEmail({
    eventType: n.event_type,
    description,
    entityId: n.entity_id,
    eventId: n.event_id,
    occurredAt: n.occurred_at,
    destination: n.description,
    dashboardLink: dashboardLink(n.entity_id),
  });
  const [row] = await query<{ id: string }>(
    `WITH inserted AS (
       INSERT INTO emails (id, event_id, event_type, template, notification_setting_id, notification_id, entity_id,
                           to_address, subject, text_body, html_body)
       VALUES ($1, $2, $3, 'notification', $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (notification_id) DO NOTHING RETURNING id)
     SELECT id FROM inserted UNION ALL SELECT id FROM emails WHERE notification_id = $5`,
    [
      newId("eml"),
      n.event_id,
      n.event_type,
      n.setting_id,
      notificationId,
      n.entity_id,
      n.address,
      content.subject,
      content.text,
      content.html,
    ],
  );
  return row?.id ?? null;
}

/** nodemailer's SMTP errors carry the server's reply code. */
function replyCode(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 100 && value < 1000 ? value : null;
}

/**
 * One delivery attempt of an email destination's notification: writes its email if new, sends it
 * (or, without SMTP, keeps it in the Emails log) and answers the attempt's outcome for the
 * notification's log. Never throws for SMTP's refusals: they are the attempt's outcome.
 */
export async function sendNotificationEmail(notificationId: string, now: Date): Promise<SendOutcome> {
  const started = performance.now();
  const outcome = (ok: boolean, fields: Partial<SendOutcome>): SendOutcome => ({
    ok,
    statusCode: null,
    contentType: null,
    body: null,
    error: null,
    ...fields,
    durationMs: Math.round(performance.now() - started),
    attemptedAt: now,
  });
  const emailId = await emailOf(notificationId);
  if (!emailId) return outcome(false, { error: "The notification's event or destination no longer exists." });
  const url = smtpUrl();
  // emailOf has just read or written this row, and emails are never deleted.
  const email = await queryExactlyOne<{ to_address: string; subject: string; text_body: string; html_body: string }>(
    `UPDATE emails SET attempts = attempts + 1, status = CASE WHEN $2 THEN status ELSE 'logged' END
      WHERE id = $1 RETURNING to_address, subject, text_body, html_body`,
    [emailId, url !== null],
  );
  if (!url) {
    return outcome(true, {
      body: `Kept in the Emails log as ${emailId}: no SMTP server is configured (SMTP_URL), so nothing was sent.`,
    });
  }
  const settings = await getAccountSettings();
  try {
    const info = await transportFor(url).sendMail({
      from: fromAddress(settings.merchant_name, settings.merchant_email),
      to: email.to_address,
      subject: email.subject,
      text: email.text_body,
      html: email.html_body,
    });
    await query("UPDATE emails SET status = 'sent', sent_at = now(), error = NULL WHERE id = $1", [emailId]);
    const response = String(info.response ?? "").slice(0, config.webhooks.responseBodyLimit);
    return outcome(true, {
      statusCode: replyCode(Number.parseInt(response, 10)) ?? 250,
      body: `Sent as ${emailId} to ${email.to_address}. ${response}`.trim(),
    });
  } catch (error) {
    const message = ((error as Error).message || "SMTP send failed").slice(0, 1000);
    await query("UPDATE emails SET status = 'failed', error = $2 WHERE id = $1", [emailId, message]);
    return outcome(false, {
      statusCode: replyCode((error as { responseCode?: unknown }).responseCode),
      body: `Email ${emailId} to ${email.to_address} was not sent.`,
      error: message,
    });
  }
}
