import { z } from "zod";
import { csv, customData, email, entityId, listQuery, locale, maxText, statusEnum } from "./common.ts";

/** The customer as the API returns it (spec: Customer). */
export const customerSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  marketing_consent: z.boolean(),
  status: statusEnum,
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  locale: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  import_meta: z.record(z.string(), z.unknown()).nullable(),
});
export type Customer = z.infer<typeof customerSchema>;

const name = maxText(1024).nullable();

export const createCustomerBody = z.strictObject({
  email,
  name: name.optional(),
  custom_data: customData.optional(),
  locale: locale.optional(),
});
export type CreateCustomerInput = z.infer<typeof createCustomerBody>;

export const updateCustomerBody = z.strictObject({
  email: email.optional(),
  name: name.optional(),
  custom_data: customData.optional(),
  locale: locale.optional(),
  status: statusEnum.optional(),
});
export type UpdateCustomerInput = z.infer<typeof updateCustomerBody>;

export const customerParams = z.object({ customer_id: entityId("ctm") });

export const listCustomersQuery = z.object({
  ...listQuery(["id"]),
  id: csv(entityId("ctm")).optional(),
  email: csv(z.string().max(320)).optional(),
  status: csv(statusEnum).optional(),
  search: z.string().max(100, "must be at most 100 characters").optional(),
});
export type ListCustomersQuery = z.infer<typeof listCustomersQuery>;

/**
 * GET /customers/{id}/summary (ours, for the dashboard's customer page): what the customer spent
 * and owes, per currency, summed by the database over all their transactions (amounts in minor units).
 */
export const customerSummarySchema = z.object({
  customer_id: z.string(),
  /** All the customer's transactions, whatever their status. */
  transactions: z.number(),
  /** Completed transactions after refunds and credits (`details.adjusted_totals.grand_total`). */
  lifetime_spend: z.array(z.object({ currency_code: z.string(), amount: z.string(), transactions: z.number() })),
  /** Issued invoices not yet paid (billed or past due): the sum of their `details.totals.balance`. */
  amount_due: z.array(
    z.object({ currency_code: z.string(), amount: z.string(), transactions: z.number(), past_due: z.number() }),
  ),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;
