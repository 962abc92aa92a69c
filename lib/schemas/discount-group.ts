import { z } from "zod";
import { csv, entityId, listQuery, requiredText, statusEnum } from "./common.ts";

/** The discount group as the API returns it (the API family's discount group entity). */
export const discountGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: statusEnum,
  import_meta: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type DiscountGroup = z.infer<typeof discountGroupSchema>;

/** 1-100 characters with a non-whitespace character. */
export const discountGroupName = requiredText(100);

export const createDiscountGroupBody = z.strictObject({
  name: discountGroupName,
});
export type CreateDiscountGroupInput = z.infer<typeof createDiscountGroupBody>;

export const updateDiscountGroupBody = z.strictObject({
  name: discountGroupName.optional(),
  status: statusEnum.optional(),
});
export type UpdateDiscountGroupInput = z.infer<typeof updateDiscountGroupBody>;

export const discountGroupParams = z.object({ discount_group_id: entityId("dsg") });

export const listDiscountGroupsQuery = z.object({
  ...listQuery(["id"]),
  id: csv(entityId("dsg")).optional(),
  status: csv(statusEnum).optional(),
});
export type ListDiscountGroupsQuery = z.infer<typeof listDiscountGroupsQuery>;
