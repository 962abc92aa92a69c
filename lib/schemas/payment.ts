/**
 * Payments: the hosted checkout's card form (POST /checkout/{transaction_id}/payments), the
 * merchant's "mark paid" of a manual invoice (POST /transactions/{transaction_id}/mark-paid), and
 * what the checkout page shows (GET /checkout/{transaction_id}).
 */
import { z } from "zod";
import { cardDigits, expired, luhnValid, parseExpiry } from "../billing/payments.ts";
import { entityId, maxText } from "./common.ts";

/**
 * A card as typed on the checkout page. The number may hold spaces or dashes between groups; each
 * problem is reported on its own field, so the form shows it beside the input.
 */
/** A card as payments and saved payment methods show it (never the number). */
export const cardSchema = z.object({
  type: z.string(),
  last4: z.string(),
  expiry_month: z.number().int(),
  expiry_year: z.number().int(),
  cardholder_name: z.string(),
});

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

/** What the hosted checkout page shows of a transaction (GET /checkout/{id}): nothing a customer need not see. */
export const checkoutSchema = z.object({
  transaction_id: z.string(),
  status: z.string(),
  /** `payable`: a payment can be taken; `paid`: already completed; `not_payable`: any other state. */
  state: z.enum(["payable", "paid", "not_payable"]),
  environment: z.enum(["sandbox", "live"]),
  /**
   * Who takes the payment: `sandbox`, the sandbox's test cards (POST /checkout/{id}/payments);
   * `stripe`, Stripe's Payment Element (POST /checkout/{id}/payment-intent, then …/payments/confirm).
   */
  processor: z.enum(["sandbox", "stripe"]),
  merchant_name: z.string(),
  currency_code: z.string(),
  invoice_number: z.string().nullable(),
  customer_email: z.string().nullable(),
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      quantity: z.number().int(),
      tax_rate: z.string(),
      total: z.string(),
    }),
  ),
  totals: z.object({
    subtotal: z.string(),
    discount: z.string(),
    tax: z.string(),
    total: z.string(),
    credit: z.string(),
    grand_total: z.string(),
  }),
  /**
   * Where the buyer goes back to after paying (a payment link's success_url, the client-side
   * library's successUrl), or null. The success page links it.
   */
  success_url: z.string().nullable(),
  /** Once paid and invoiced: a signed link (an hour) to the receipt PDF, the invoice document. */
  receipt_url: z.string().nullable(),
  /** Once paid: whether the payment started (or paid) a subscription, which the buyer can manage. */
  manages_subscription: z.boolean(),
  /** Whether a discount code can still be applied: a ready, automatically-collected transaction. */
  accepts_discount_code: z.boolean(),
  /** The code of the discount applied, when it has one. */
  discount_code: z.string().nullable(),
  /** The newest payment attempt, when there is one (its result, after a reload). */
  last_payment: z
    .object({ status: z.string(), error_code: z.string().nullable(), amount: z.string(), created_at: z.string() })
    .nullable(),
});
export type CheckoutView = z.infer<typeof checkoutSchema>;

/** A payment attempt: an entry of a transaction's `payments` (lib/billing/payments.ts Payment). */
export const paymentSchema = z.object({
  payment_attempt_id: z.string(),
  /** Deprecated in the API family: a UUID, or the saved payment method's ID. */
  stored_payment_method_id: z.string(),
  /** The saved payment method (`paymtd_`) this attempt used; null for a method not saved. */
  payment_method_id: z.string().nullable(),
  amount: z.string(),
  status: z.enum(["captured", "error"]),
  error_code: z.string().nullable(),
  method_details: z.object({
    type: z.enum(["card", "offline", "wire_transfer"]),
    /** The family's, for methods with several options (korea_local): always null here. */
    underlying_details: z.null(),
    card: cardSchema.nullable(),
    /** Ours, on payments the merchant records (offline, wire transfer): absent on card payments. */
    reference: z.string().nullable().optional(),
  }),
  created_at: z.string(),
  captured_at: z.string().nullable(),
});

/** What a payment endpoint answers (POST /checkout/{id}/payments): the attempt and the transaction's status after it. */
export const checkoutPaymentSchema = z.object({
  transaction_id: z.string(),
  transaction_status: z.string(),
  payment: paymentSchema,
});

/**
 * What the checkout page needs to collect a payment through Stripe (POST /checkout/{id}/payment-intent):
 * the client secret of the attempt's PaymentIntent (`kind: payment`) or, for a transaction that owes
 * nothing but saves a card, SetupIntent (`kind: setup`), the publishable key and Stripe.js's address.
 */
export const checkoutIntentSchema = z.object({
  transaction_id: z.string(),
  kind: z.enum(["payment", "setup"]),
  client_secret: z.string(),
  publishable_key: z.string(),
  stripe_js_url: z.string(),
  /** What the intent is for: the transaction's balance (0 for a setup), minor units. */
  amount: z.string(),
  currency_code: z.string(),
});
export type CheckoutIntent = z.infer<typeof checkoutIntentSchema>;

/** Stripe's IDs: a PaymentIntent (pi_…) or a SetupIntent (seti_…). */
const INTENT_ID = /^(pi|seti)_[A-Za-z0-9]{1,200}$/;

/** POST /checkout/{id}/payments/confirm: the intent Stripe.js confirmed; its outcome is read from Stripe. */
export const checkoutConfirmBody = z.strictObject({
  payment_intent: z
    .string({ error: "is required: the ID of the PaymentIntent or SetupIntent Stripe.js confirmed" })
    .regex(INTENT_ID, "must be a Stripe PaymentIntent ID (pi_…) or SetupIntent ID (seti_…)"),
});
export type CheckoutConfirmInput = z.infer<typeof checkoutConfirmBody>;

/** The confirmation's outcome, as Stripe reports it and as it was settled. */
export const checkoutConfirmationSchema = z.object({
  transaction_id: z.string(),
  transaction_status: z.string(),
  /** `succeeded`: the transaction is paid; `failed`: pay again with another card; the others: wait. */
  status: z.enum(["succeeded", "failed", "requires_action", "processing"]),
  /** The captured payment (succeeded), or the failed attempt's error payment. */
  payment: paymentSchema.nullable(),
  /** Why it failed, in words a customer reads (Stripe's decline codes translated). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type CheckoutConfirmation = z.infer<typeof checkoutConfirmationSchema>;

/** POST /checkout/{id}/discount: a discount code the buyer typed. */
export const checkoutDiscountBody = z.strictObject({
  code: z
    .string({ error: "is required: type the discount code" })
    .trim()
    .min(1, { error: "is required: type the discount code", abort: true })
    .max(32, "is not a discount code: codes are at most 32 letters and digits"),
});
export type CheckoutDiscountInput = z.infer<typeof checkoutDiscountBody>;

/** POST /checkout/{id}/portal-session: where the buyer manages the subscription they just bought. */
export const checkoutPortalSchema = z.object({ url: z.string() });

/** POST /transactions/{id}/charge-saved-method (ours): which of the customer's saved methods to charge. */
export const chargeSavedMethodBody = z.strictObject({ payment_method_id: entityId("paymtd") });
export type ChargeSavedMethodInput = z.infer<typeof chargeSavedMethodBody>;
