import type { CheckoutDomain } from "../../schemas/checkout-domain.ts";
import { type EntityTable, jsonRecord, ts } from "../sql.ts";

/** The checkout domain's API shape (the family's CheckoutDomain entity), fields in its order. */
export const CHECKOUT_DOMAIN: EntityTable<CheckoutDomain> = {
  table: "checkout_domains",
  fields: [
    ["id", "t.id"],
    ["domain", "t.domain"],
    ["status", "t.status"],
    ["payment_method_verification", jsonRecord([["apple_pay", jsonRecord([["status", "t.apple_pay_status"]])]])],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
  orderColumns: { created_at: "t.created_at", updated_at: "t.updated_at" },
};
