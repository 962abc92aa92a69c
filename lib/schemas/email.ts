/**
 * Customer emails (an extension of ours): the sandbox's log of every email, and what SMTP answered.
 * GET /emails lists them newest first (without their bodies); GET /emails/{email_id} has the text
 * and HTML. Client-safe: the dashboard's Emails page uses these types.
 */
import { z } from "zod";
import { csv, entityId, listQuery } from "./common.ts";

export const EMAIL_STATUSES = ["pending", "sent", "failed", "logged"] as const;
export const EMAIL_TEMPLATES = [
  "invoice_issued",
  "receipt",
  "payment_failed",
  "invoice_past_due",
  "trial_ending",
  "subscription_canceled",
  "portal_link",
  "checkout_link",
  "notification",
  "team_invite",
] as const;

export const emailSummarySchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  template: z.enum(EMAIL_TEMPLATES),
  event_id: z.string().nullable(),
  event_type: z.string().nullable(),
  entity_id: z.string().nullable(),
  notification_setting_id: z.string().nullable(),
  status: z.enum(EMAIL_STATUSES),
  error: z.string().nullable(),
  attempts: z.number(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type EmailSummary = z.infer<typeof emailSummarySchema>;

export const emailSchema = emailSummarySchema.extend({ text: z.string(), html: z.string() });

/** POST /customers/{id}/portal-link-email (ours): the email queued. */
export const queuedEmailSchema = z.object({ id: z.string(), to: z.string(), status: z.string() });
export type Email = z.infer<typeof emailSchema>;

export const emailParams = z.object({ email_id: entityId("eml") });

export const listEmailsQuery = z.object({
  ...listQuery(["id"], "desc"),
  status: csv(z.enum(EMAIL_STATUSES, { error: `must be one of ${EMAIL_STATUSES.join(", ")}` })).optional(),
  template: csv(z.enum(EMAIL_TEMPLATES, { error: `must be one of ${EMAIL_TEMPLATES.join(", ")}` })).optional(),
  /** The emails about this entity (a transaction, subscription or customer). */
  entity_id: z
    .string()
    .regex(/^(txn|ctm|sub)_[a-z0-9]{26}$/, "must be a transaction (txn_), customer (ctm_) or subscription (sub_) ID")
    .optional(),
  /** The emails sent to this address (exact, case-insensitive). */
  to: z.string().max(320, "must be at most 320 characters").optional(),
});
export type ListEmailsQuery = z.infer<typeof listEmailsQuery>;
