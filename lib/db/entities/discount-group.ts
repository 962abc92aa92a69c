import type { DiscountGroup } from "../../schemas/discount-group.ts";
import { type EntityTable, ts } from "../sql.ts";

/** The discount group's fields as SQL over the row alias `alias`, in the API family's order. */
export function discountGroupFields(alias: string): [string, string][] {
  return [
    ["id", `${alias}.id`],
    ["name", `${alias}.name`],
    ["status", `${alias}.status`],
    ["import_meta", `${alias}.import_meta`],
    ["created_at", ts(`${alias}.created_at`)],
    ["updated_at", ts(`${alias}.updated_at`)],
  ];
}

/** The discount group's API shape. */
export const DISCOUNT_GROUP: EntityTable<DiscountGroup> = {
  table: "discount_groups",
  fields: discountGroupFields("t"),
};
