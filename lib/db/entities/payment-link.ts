import { config } from "../../config.ts";
import type { PaymentLink } from "../../schemas/payment-link.ts";
import { type EntityTable, sqlText, ts } from "../sql.ts";

/** The payment link's API shape (ours: lib/schemas/payment-link.ts). `url` is built, not stored. */
export const PAYMENT_LINK: EntityTable<PaymentLink> = {
  table: "payment_links",
  fields: [
    ["id", "t.id"],
    ["status", "t.status"],
    ["url", `${sqlText(`${config.publicUrl}/pay/`)} || t.id`],
    ["items", "t.items"],
    ["success_url", "t.success_url"],
    ["reusable", "t.reusable"],
    ["transaction_id", "t.transaction_id"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
  orderColumns: { created_at: "t.created_at", updated_at: "t.updated_at" },
};
