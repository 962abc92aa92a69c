/**
 * "Manage subscription" on the paid checkout (POST /checkout/{id}/portal-session): a customer-portal
 * link for the subscription the payment started, made as the API's portal sessions are
 * (lib/services/portal/sessions.ts: signed, 24 hours, one customer).
 *
 * Decision: the checkout link (the transaction ID) is the only credential, so the portal link is
 * given only in the 24 hours after the payment, to whoever just paid; later, the customer uses the
 * links of their emails (receipt, payment failed) as before.
 */
import { query } from "../../db/sql.ts";
import { ApiError, notFound } from "../../errors.ts";
import { createPortalSession } from "../portal/sessions.ts";

const WINDOW_MS = 24 * 60 * 60 * 1000;

export async function checkoutPortalLink(id: string, now = Date.now()): Promise<{ url: string }> {
  const [row] = await query<{
    status: string;
    customer_id: string | null;
    subscription_id: string | null;
    paid_at: string | null;
  }>(
    `SELECT t.status, t.customer_id, t.subscription_id,
            (SELECT max((p->>'captured_at')::timestamptz) FROM json_array_elements(t.payments::json) p)::text AS paid_at
       FROM transactions t WHERE t.id = $1`,
    [id],
  );
  if (!row) throw notFound(id);
  if (row.status !== "completed" || !row.subscription_id || !row.customer_id) {
    throw new ApiError("bad_request", "This payment did not start a subscription: there is nothing to manage.");
  }
  if (!row.paid_at || now - new Date(row.paid_at).getTime() > WINDOW_MS) {
    throw new ApiError(
      "forbidden",
      "The checkout offers the subscription's management only on the day of the payment. Use the link in your receipt or ask the seller for one.",
    );
  }
  const session = await createPortalSession(row.customer_id, { subscription_ids: [row.subscription_id] }, now);
  return { url: session.urls.general.overview };
}
