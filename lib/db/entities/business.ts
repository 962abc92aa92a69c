import type { Business } from "../../schemas/business.ts";
import { type EntityTable, ts } from "../sql.ts";

/**
 * The business's API shape (spec: Business), in the spec's field order. `contacts` is stored in
 * its response shape (see `storedContacts`), so the column is returned as is.
 */
export const BUSINESS: EntityTable<Business> = {
  table: "businesses",
  fields: [
    ["id", "t.id"],
    ["customer_id", "t.customer_id"],
    ["name", "t.name"],
    ["company_number", "t.company_number"],
    ["tax_identifier", "t.tax_identifier"],
    ["status", "t.status"],
    ["contacts", "t.contacts"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
    ["custom_data", "t.custom_data"],
    ["import_meta", "t.import_meta"],
  ],
};
