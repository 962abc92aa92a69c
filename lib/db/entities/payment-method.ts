import type { PaymentMethod } from "../../schemas/payment-method.ts";
import { type EntityTable, ts } from "../sql.ts";

export const PAYMENT_METHOD: EntityTable<PaymentMethod> = {
  table: "payment_methods",
  fields: [
    ["id", "t.id"],
    ["customer_id", "t.customer_id"],
    ["address_id", "t.address_id"],
    ["type", "t.type"],
    ["card", "t.card"],
    ["paypal", "NULL::json"],
    ["south_korea_local_card", "NULL::json"],
    ["underlying_details", "NULL::json"],
    ["origin", "t.origin"],
    ["saved_at", ts("t.saved_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};
