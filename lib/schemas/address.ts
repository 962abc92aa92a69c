import { z } from "zod";
import { countryCode, csv, customData, entityId, listQuery, maxText, statusEnum } from "./common.ts";
import { POSTAL_CODE_REQUIRED } from "./countries.ts";

/** The address as the API returns it (spec: Address). */
export const addressSchema = z.object({
  id: z.string(),
  customer_id: z.string(),
  description: z.string().nullable(),
  first_line: z.string().nullable(),
  second_line: z.string().nullable(),
  city: z.string().nullable(),
  postal_code: z.string().nullable(),
  region: z.string().nullable(),
  country_code: z.string(),
  custom_data: z.record(z.string(), z.unknown()).nullable(),
  status: statusEnum,
  created_at: z.string(),
  updated_at: z.string(),
  import_meta: z.record(z.string(), z.unknown()).nullable(),
});
export type Address = z.infer<typeof addressSchema>;

const line = maxText(1024).nullable();
const locality = maxText(200).nullable();

const addressFields = {
  description: line.optional(),
  first_line: line.optional(),
  second_line: line.optional(),
  city: locality.optional(),
  postal_code: locality.optional(),
  region: locality.optional(),
  custom_data: customData.optional(),
};

/**
 * The message for an address in `country` whose postal code is `postalCode`, or null when it is
 * fine. Countries in POSTAL_CODE_REQUIRED need one; a blank string counts as none (it cannot serve
 * tax calculation any better than null).
 */
export function postalCodeProblem(country: string, postalCode: string | null | undefined): string | null {
  if (!POSTAL_CODE_REQUIRED.has(country)) return null;
  if (typeof postalCode === "string" && postalCode.trim() !== "") return null;
  return `is required for addresses in ${country}`;
}

export const createAddressBody = z
  .strictObject({
    country_code: countryCode,
    ...addressFields,
  })
  .superRefine((value, ctx) => {
    const problem = postalCodeProblem(value.country_code, value.postal_code);
    if (problem) ctx.addIssue({ code: "custom", path: ["postal_code"], message: problem });
  });
export type CreateAddressInput = z.infer<typeof createAddressBody>;

/** The postal-code rule needs the stored address too, so the service checks it on update. */
export const updateAddressBody = z.strictObject({
  country_code: countryCode.optional(),
  ...addressFields,
  status: statusEnum.optional(),
});
export type UpdateAddressInput = z.infer<typeof updateAddressBody>;

export const customerAddressesParams = z.object({ customer_id: entityId("ctm") });

export const addressParams = z.object({ customer_id: entityId("ctm"), address_id: entityId("add") });

export const listAddressesQuery = z.object({
  ...listQuery(["id"]),
  id: csv(entityId("add")).optional(),
  status: csv(statusEnum).optional(),
  search: z.string().max(100, "must be at most 100 characters").optional(),
});
export type ListAddressesQuery = z.infer<typeof listAddressesQuery>;
