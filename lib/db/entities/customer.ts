import type { Customer } from "../../schemas/customer.ts";
import { type EntityTable, ts } from "../sql.ts";

/** The customer's API shape (spec: Customer), in the spec's field order. */
export const CUSTOMER: EntityTable<Customer> = {
  table: "customers",
  fields: [
    ["id", "t.id"],
    ["name", "t.name"],
    ["email", "t.email"],
    ["marketing_consent", "t.marketing_consent"],
    ["status", "t.status"],
    ["custom_data", "t.custom_data"],
    ["locale", "t.locale"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
    ["import_meta", "t.import_meta"],
  ],
};
