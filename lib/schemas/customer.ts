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
