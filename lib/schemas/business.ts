import { z } from "zod";
import { csv, customData, email, entityId, listQuery, maxText, requiredText, statusEnum } from "./common.ts";

export const MAX_CONTACTS = 100;

export const businessContactSchema = z.object({
  /** "" for a contact given without a name (a string in the API family). */
  name: z.string(),
  email: z.string(),
});
export type BusinessContact = z.infer<typeof businessContactSchema>;

/** The business as the API returns it (spec: Business). */
export const businessSchema = z.object({
  id: z.string(),
  customer_id: z.string(),
  name: z.string(),
  company_number: z.string().nullable(),
  tax_identifier: z.string().nullable(),
  status: statusEnum,
  contacts: z.array(businessContactSchema),
  created_at: z.string(),
  updated_at: z.string(),
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  import_meta: z.record(z.string(), z.unknown()).nullable(),
});
export type Business = z.infer<typeof businessSchema>;

const contact = z.strictObject({
  name: maxText(1024).nullable().optional(),
  email,
});

/** At most 100 contacts, unique by email without regard to case; a repeat is named by its index. */
const contacts = z
  .array(contact)
  .max(MAX_CONTACTS, `must have at most ${MAX_CONTACTS} entries`)
  .superRefine((list, ctx) => {
    const seen = new Map<string, number>();
    list.forEach((entry, index) => {
      // Defensive: an entry that failed its own checks has already been reported.
      if (typeof entry?.email !== "string") return;
      const key = entry.email.toLowerCase();
      const first = seen.get(key);
      if (first === undefined) seen.set(key, index);
      else {
        const message = `must be unique: contacts[${first}].email has the same address`;
        ctx.addIssue({ code: "custom", path: [index, "email"], message });
      }
    });
  });

const optionalText = maxText(1024).nullable();

export const createBusinessBody = z.strictObject({
  name: requiredText(1024),
  company_number: optionalText.optional(),
  tax_identifier: optionalText.optional(),
  contacts: contacts.optional(),
  custom_data: customData.optional(),
});
export type CreateBusinessInput = z.infer<typeof createBusinessBody>;

export const updateBusinessBody = z.strictObject({
  name: requiredText(1024).optional(),
  company_number: optionalText.optional(),
  tax_identifier: optionalText.optional(),
  contacts: contacts.optional(),
  custom_data: customData.optional(),
  status: statusEnum.optional(),
});
export type UpdateBusinessInput = z.infer<typeof updateBusinessBody>;

export const customerBusinessesParams = z.object({ customer_id: entityId("ctm") });

export const businessParams = z.object({ customer_id: entityId("ctm"), business_id: entityId("biz") });

export const listBusinessesQuery = z.object({
  ...listQuery(["id"]),
  id: csv(entityId("biz")).optional(),
  status: csv(statusEnum).optional(),
  search: z.string().max(100, "must be at most 100 characters").optional(),
});
export type ListBusinessesQuery = z.infer<typeof listBusinessesQuery>;
