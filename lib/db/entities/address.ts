import type { Address } from "../../schemas/address.ts";
import { type EntityTable, ts } from "../sql.ts";

/** The address's API shape (spec: Address), in the spec's field order. */
export const ADDRESS: EntityTable<Address> = {
  table: "addresses",
  fields: [
    ["id", "t.id"],
    ["customer_id", "t.customer_id"],
    ["description", "t.description"],
    ["first_line", "t.first_line"],
    ["second_line", "t.second_line"],
    ["city", "t.city"],
    ["postal_code", "t.postal_code"],
    ["region", "t.region"],
    ["country_code", "t.country_code"],
    ["custom_data", "t.custom_data"],
    ["status", "t.status"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
    ["import_meta", "t.import_meta"],
  ],
};
