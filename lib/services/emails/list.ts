/** GET /emails and GET /emails/{email_id}: the emails log (the sandbox's inbox without SMTP). */
import { type EntityTable, getJson, type JsonPage, listJson, Params, type RawJson, ts } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import type { Email, EmailSummary, ListEmailsQuery } from "../../schemas/email.ts";
import { maskedBody } from "./outbox.ts";

const SUMMARY_FIELDS = [
  ["id", "t.id"],
  ["to", "t.to_address"],
  ["subject", "t.subject"],
  ["template", "t.template"],
  ["event_id", "t.event_id"],
  ["event_type", "t.event_type"],
  ["entity_id", "t.entity_id"],
  ["notification_setting_id", "t.notification_setting_id"],
  ["status", "t.status"],
  ["error", "t.error"],
  ["attempts", "t.attempts"],
  ["created_at", ts("t.created_at")],
  ["sent_at", ts("t.sent_at")],
] as const;

export const EMAIL_SUMMARY: EntityTable<EmailSummary> = { table: "emails", fields: SUMMARY_FIELDS };
export const EMAIL: EntityTable<Email> = {
  table: "emails",
  // A team invitation's one-time link is masked even before the email is delivered (outbox.ts).
  fields: [...SUMMARY_FIELDS, ["text", maskedBody("t", "text_body")], ["html", maskedBody("t", "html_body")]],
};

export function listEmails(q: ListEmailsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  if (q.template) filters.push(params.oneOf("t.template", q.template));
  if (q.entity_id) filters.push(`t.entity_id = ${params.add(q.entity_id)}`);
  if (q.to) filters.push(`lower(t.to_address) = lower(${params.add(q.to)})`);
  return listJson(EMAIL_SUMMARY, { filters, params, orderBy: q.order_by, after: q.after, perPage: q.per_page });
}

export async function getEmail(id: string): Promise<RawJson<Email>> {
  const email = await getJson(EMAIL, "t.id = $1", [id]);
  if (!email) throw notFound(id);
  return email;
}
