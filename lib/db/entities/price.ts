import type { Price, PriceWithProduct } from "../../schemas/price.ts";
import { type EntityTable, includable, jsonRecord, ts } from "../sql.ts";
import { PRODUCT } from "./product.ts";

/** `billing_cycle` / `trial_period` from their two columns: null when the interval is. */
function duration(prefix: string): string {
  const value = jsonRecord([
    ["interval", `t.${prefix}_interval`],
    ["frequency", `t.${prefix}_frequency`],
  ]);
  return `CASE WHEN t.${prefix}_interval IS NULL THEN NULL ELSE ${value} END`;
}

/**
 * The overrides are stored as jsonb, which reorders object keys; they are rebuilt here in the
 * API's order (country_codes, unit_price; amount, currency_code), keeping the array's order.
 */
const OVERRIDE = jsonRecord([
  ["country_codes", "o.v->'country_codes'"],
  [
    "unit_price",
    jsonRecord([
      ["amount", "o.v->'unit_price'->>'amount'"],
      ["currency_code", "o.v->'unit_price'->>'currency_code'"],
    ]),
  ],
]);
const UNIT_PRICE_OVERRIDES = `(SELECT coalesce(json_agg(${OVERRIDE} ORDER BY o.n), '[]'::json)
  FROM jsonb_array_elements(t.unit_price_overrides) WITH ORDINALITY AS o(v, n))`;

/** The price's API shape (spec: Price), in the spec's field order. Amounts are strings. */
export const PRICE: EntityTable<Price> = {
  table: "prices",
  fields: [
    ["id", "t.id"],
    ["product_id", "t.product_id"],
    ["type", "t.type"],
    ["description", "t.description"],
    ["name", "t.name"],
    ["tax_mode", "t.tax_mode"],
    ["billing_cycle", duration("billing_cycle")],
    ["trial_period", duration("trial_period")],
    [
      "unit_price",
      jsonRecord([
        ["amount", "t.unit_price_amount::text"],
        ["currency_code", "t.unit_price_currency"],
      ]),
    ],
    ["unit_price_overrides", UNIT_PRICE_OVERRIDES],
    ["custom_data", "t.custom_data"],
    ["status", "t.status"],
    [
      "quantity",
      jsonRecord([
        ["minimum", "t.quantity_minimum"],
        ["maximum", "t.quantity_maximum"],
      ]),
    ],
    ["import_meta", "t.import_meta"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
  // Never NULL (keyset pagination compares values): a one-time price sorts before recurring ones.
  orderColumns: {
    "billing_cycle.frequency": "coalesce(t.billing_cycle_frequency, 0)",
    "billing_cycle.interval": "coalesce(t.billing_cycle_interval, '')",
    created_at: "t.created_at",
    product_id: "t.product_id",
    "quantity.maximum": "t.quantity_maximum",
    "quantity.minimum": "t.quantity_minimum",
    status: "t.status",
    tax_mode: "t.tax_mode",
    "unit_price.amount": "t.unit_price_amount",
    "unit_price.currency_code": "t.unit_price_currency",
    updated_at: "t.updated_at",
  },
};

/** The price with `include=product`. */
export const priceEntity = includable<Price, PriceWithProduct>(
  PRICE,
  "product",
  () => PRODUCT,
  "t.id = parent.product_id",
  false,
);
