/**
 * `billing_details` of transactions and subscriptions, rendered field by field from the stored JSON
 * (a whitelist in the family's order). `purchase_order_number` is a string in the API family, `""`
 * when none was given (its answers send `""`, and its schema allows no null): details stored
 * before that was so hold null, which is rendered `""` too.
 */
import { jsonRecord } from "../sql.ts";

export function billingDetailsJson(column: string): string {
  return `CASE WHEN ${column} IS NULL OR json_typeof(${column}) <> 'object' THEN NULL ELSE ${jsonRecord([
    ["enable_checkout", `${column}->'enable_checkout'`],
    [
      "purchase_order_number",
      `CASE WHEN json_typeof(${column}->'purchase_order_number') = 'string'
        THEN ${column}->'purchase_order_number' ELSE '""'::json END`,
    ],
    ["additional_information", `${column}->'additional_information'`],
    ["payment_terms", `${column}->'payment_terms'`],
  ])} END`;
}
