/**
 * A transaction's attempts at a payment processor (an extension of ours, for the dashboard): each
 * PaymentIntent or SetupIntent made for it at Stripe, its state there, why it failed in words, and
 * its page in Stripe's dashboard. The family's `payments` stay as they are.
 */
import { z } from "zod";

export const PAYMENT_ATTEMPT_KINDS = ["checkout", "off_session", "setup"] as const;
export const PAYMENT_ATTEMPT_STATUSES = [
  "started",
  "requires_action",
  "processing",
  "succeeded",
  "failed",
  "canceled",
] as const;

export const paymentAttemptSchema = z.object({
  id: z.string(),
  processor: z.enum(["stripe"]),
  kind: z.enum(PAYMENT_ATTEMPT_KINDS),
  status: z.enum(PAYMENT_ATTEMPT_STATUSES),
  amount: z.string(),
  currency_code: z.string(),
  /** The processor's ID (pi_…, seti_…), null until the processor gave one. */
  processor_reference: z.string().nullable(),
  /** The payment's page in the processor's dashboard, when it has a reference. */
  dashboard_url: z.string().nullable(),
  error_code: z.string().nullable(),
  /** Why it failed, in plain words. */
  error_message: z.string().nullable(),
  settled_at: z.string().nullable(),
  created_at: z.string(),
});
export type PaymentAttemptView = z.infer<typeof paymentAttemptSchema>;
