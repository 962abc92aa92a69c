/** Saved payment methods (decision: saved-cards-for-subscriptions): response shape and parameters. */
import { z } from "zod";
import { csv, entityId, listQuery } from "./common.ts";
import { cardSchema } from "./payment.ts";
import { currencyCode } from "./price.ts";

export const paymentMethodSchema = z.object({
  id: z.string(),
  customer_id: z.string(),
  address_id: z.string(),
  type: z.string(),
  card: cardSchema.nullable(),
  paypal: z.null(),
  south_korea_local_card: z.null(),
  underlying_details: z.null(),
  origin: z.enum(["saved_during_purchase", "subscription"]),
  saved_at: z.string(),
  updated_at: z.string(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const paymentMethodParams = z.object({ customer_id: entityId("ctm"), payment_method_id: entityId("paymtd") });

export const listPaymentMethodsQuery = z.object({
  ...listQuery(["id"]),
  address_id: csv(entityId("add")).optional(),
  supports_checkout: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((value) => value === "true")
    .optional(),
  /** A card's last 4 digits (ours: the dashboard's search finds the customer by their card). */
  last4: z
    .string()
    .regex(/^\d{4}$/, "must be the card's last 4 digits")
    .optional(),
});
export type ListPaymentMethodsQuery = z.infer<typeof listPaymentMethodsQuery>;

/** A customer's credit in one currency (GET /customers/{customer_id}/credit-balances). */
export const creditBalanceSchema = z.object({
  customer_id: z.string(),
  currency_code: z.string(),
  balance: z.object({ available: z.string(), reserved: z.string(), used: z.string() }),
});
export type CreditBalance = z.infer<typeof creditBalanceSchema>;

/** GET /customers/{customer_id}/credit-balances: not paginated, one per currency, as in the API family. */
export const creditBalancesQuery = z.object({ currency_code: currencyCode.optional() });
