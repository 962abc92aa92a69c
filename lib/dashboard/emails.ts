/** The dashboard's Emails log: GET /emails (newest first, polled while some are being sent) and GET /emails/{id}. */
import type { Email, EmailSummary } from "../schemas/email.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useEntity, useList, useSave } from "./hooks.ts";

export type { Email, EmailSummary };

export const emailKeys = {
  lists: ["emails", "list"] as const,
  detail: (id: string) => ["emails", "detail", id] as const,
};

const POLL_MS = 3_000;

export function useEmails(params: ListParams) {
  return useList<EmailSummary>(emailKeys.lists, "/emails", params, true, (data) =>
    data?.data.some((email) => email.status === "pending") ? POLL_MS : false,
  );
}

export function useEmail(id: string) {
  return useEntity<Email>(emailKeys.detail(id), `/emails/${enc(id)}`, (data) =>
    data?.status === "pending" ? POLL_MS : false,
  );
}

/** What each template is, in words. */
export const TEMPLATE_LABELS: Record<EmailSummary["template"], string> = {
  invoice_issued: "Invoice issued",
  receipt: "Receipt",
  payment_failed: "Payment failed",
  invoice_past_due: "Invoice past due",
  trial_ending: "Trial ending",
  subscription_canceled: "Subscription canceled",
  portal_link: "Portal link",
  checkout_link: "Checkout link",
  notification: "Notification",
  team_invite: "Team invitation",
};

/** POST /customers/{id}/portal-link-email: the email queued (it appears in the Emails log). */
export function useEmailPortalLink(customerId: string) {
  return useSave(
    async () =>
      (
        await api<EntityResponse<{ id: string; to: string; status: string }>>(
          `/customers/${enc(customerId)}/portal-link-email`,
          { method: "POST" },
        )
      ).data,
    () => [emailKeys.lists],
  );
}

/** Templates the API does not resend (a one-time invitation link; a notification's delivery). */
export const NOT_RESENT: ReadonlySet<EmailSummary["template"]> = new Set(["team_invite", "notification"]);

/** POST /emails/{id}/resend: a new email of the log, to the same address, with fresh links. */
export function useResendEmail(id: string) {
  return useSave(
    async () => (await api<EntityResponse<EmailSummary>>(`/emails/${enc(id)}/resend`, { method: "POST" })).data,
    () => [emailKeys.lists],
  );
}
