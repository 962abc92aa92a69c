import type { Business } from "../../schemas/business.ts";
import { type EntityTable, jsonRecord, ts } from "../sql.ts";

/**
 * `contacts`, each `{name, email}` in that order. A contact's name is a string in the API family
 * (its schema requires one): a contact stored without one (null, as they were stored before) is
 * answered with `""`, as lib/services/businesses.ts stores it now.
 */
const CONTACTS = `(SELECT coalesce(json_agg(${jsonRecord([
  ["name", `CASE WHEN jsonb_typeof(c.v->'name') = 'string' THEN c.v->'name' ELSE '""'::jsonb END`],
  ["email", "c.v->'email'"],
])} ORDER BY c.i), '[]'::json) FROM jsonb_array_elements(t.contacts) WITH ORDINALITY c(v, i))`;

/** The business's API shape (spec: Business), in the spec's field order. */
export const BUSINESS: EntityTable<Business> = {
  table: "businesses",
  fields: [
    ["id", "t.id"],
    ["customer_id", "t.customer_id"],
    ["name", "t.name"],
    ["company_number", "t.company_number"],
    ["tax_identifier", "t.tax_identifier"],
    ["status", "t.status"],
    ["contacts", CONTACTS],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
    ["custom_data", "t.custom_data"],
    ["import_meta", "t.import_meta"],
  ],
};
