/**
 * Payments: the hosted checkout's card form (POST /checkout/{transaction_id}/payments), the
 * merchant's "mark paid" of a manual invoice (POST /transactions/{transaction_id}/mark-paid), and
 * what the checkout page shows (GET /checkout/{transaction_id}).
 */
import { z } from "zod";
import { cardDigits, expired, luhnValid, parseExpiry } from "../billing/payments.ts";
import { maxText } from "./common.ts";

/**
 * A card as typed on the checkout page. The number may hold spaces or dashes between groups; each
 * problem is reported on its own field, so the form shows it beside the input.
 */
export const cardPaymentBody = z.strictObject({
  cardholder_name: z
    .string({ error: "is required" })
    .trim()
    .min(1, "is required: the name as printed on the card")
    .max(200, "must be at most 200 characters"),
  number: z
    .string({ error: "is required" })
    .refine((value) => /^[\d\s-]+$/.test(value) && /^\d{12,19}$/.test(cardDigits(value)), {
      error: "must be 12 to 19 digits",
      abort: true,
    })
    .refine((value) => luhnValid(cardDigits(value)), "is not a valid card number (check the digits)"),
  expiry: z
    .string({ error: "is required" })
    .refine((value) => parseExpiry(value) !== null, { error: "must be MM/YY, for example 08/29", abort: true })
    .refine((value) => {
      const expiry = parseExpiry(value);
      return expiry !== null && !expired(expiry, new Date());
    }, "is in the past: the card has expired"),
  cvc: z.string({ error: "is required" }).regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
});
export type CardPaymentInput = z.infer<typeof cardPaymentBody>;

export const MARK_PAID_METHODS = ["offline", "wire_transfer"] as const;

/** How a manual invoice was paid outside the checkout (default `offline`). */
export const markPaidBody = z
  .strictObject({
    method: z.enum(MARK_PAID_METHODS, { error: `must be ${MARK_PAID_METHODS.join(" or ")}` }).optional(),
    /** The bank's or the merchant's reference for the payment, kept on the payment. */
    reference: maxText(200).nullable().optional(),
  })
  .optional();
export type MarkPaidInput = z.infer<typeof markPaidBody>;

/** What the hosted checkout page shows of a transaction: nothing a customer need not see. */
export interface CheckoutView {
  transaction_id: string;
  status: string;
  /** `payable`: a payment can be taken; `paid`: already completed; `not_payable`: any other state. */
  state: "payable" | "paid" | "not_payable";
  environment: "sandbox" | "live";
  merchant_name: string;
  currency_code: string;
  invoice_number: string | null;
  customer_email: string | null;
  items: { id: string; name: string; description: string | null; quantity: number; tax_rate: string; total: string }[];
  totals: { subtotal: string; discount: string; tax: string; total: string; credit: string; grand_total: string };
  /** The newest payment attempt, when there is one (its result, after a reload). */
  last_payment: { status: string; error_code: string | null; amount: string; created_at: string } | null;
}
