/** Emails of a link that staff send a customer on request: the portal, a transaction's checkout. */

import { checkoutUrl, recurringItemsSql } from "../../db/entities/transaction.ts";
import { query, sqlTransaction } from "../../db/sql.ts";
import { documentMoney } from "../../documents/print-format.ts";
import { ApiError, notFound } from "../../errors.ts";
import { getAccountSettings } from "../account-settings.ts";
import { queueDelivery, recordEmail } from "./outbox.ts";
import { branding, customerOf, portalLinkOrThrow } from "./recipients.ts";
import { checkoutLinkEmail, portalLinkEmail } from "./templates.ts";

/**
 * POST /customers/{customer_id}/portal-link-email (ours): emails the customer a portal link (24
 * hours). The email is written and its delivery queued in one transaction; answers the email.
 */
export async function emailPortalLink(customerId: string): Promise<{ id: string; to: string; status: string }> {
  const link = await portalLinkOrThrow(customerId);
  const customer = await customerOf(customerId);
  if (!customer)
    throw new ApiError("bad_request", `Customer ${customerId} has no email address to send the portal link to.`);
  const settings = await getAccountSettings();
  return sqlTransaction(async (client) => {
    const id = await recordEmail(
      {
        eventId: null,
        eventType: null,
        entityId: customerId,
        template: "portal_link",
        to: customer.email,
        content: portalLinkEmail({
          merchant: settings.merchant_name,
          logoUrl: branding(settings).logoUrl,
          customerName: customer.name,
          link,
        }),
      },
      client,
    );
    await queueDelivery(client, [id]);
    return { id, to: customer.email, status: "pending" };
  });
}

/**
 * POST /transactions/{transaction_id}/checkout-email (ours): emails the customer the hosted
 * checkout of a ready, automatically-collected transaction (the dashboard's "New subscription" →
 * "Email a checkout link"). The email is written and its delivery queued in one transaction.
 */
export async function emailCheckoutLink(transactionId: string): Promise<{ id: string; to: string; status: string }> {
  const [t] = await query<{
    status: string;
    collection_mode: string;
    customer_id: string | null;
    currency_code: string;
    grand_total: string;
    recurring: boolean;
  }>(
    `SELECT t.status, t.collection_mode, t.customer_id, t.currency_code, t.details->'totals'->>'grand_total' AS grand_total,
            ${recurringItemsSql("t")} AS recurring
       FROM transactions t WHERE t.id = $1`,
    [transactionId],
  );
  if (!t) throw notFound(transactionId);
  if (t.status !== "ready" || t.collection_mode !== "automatic") {
    throw new ApiError(
      "transaction_not_payable",
      `Transaction ${transactionId} is ${t.status}${t.collection_mode === "manual" ? " and manually collected" : ""}: only a ready, automatically-collected transaction is paid at the checkout. Issue an invoice instead.`,
    );
  }
  const customer = await customerOf(t.customer_id);
  if (!customer) {
    throw new ApiError("bad_request", `Transaction ${transactionId} has no customer email to send the link to.`);
  }
  const settings = await getAccountSettings();
  const link = checkoutUrl(transactionId);
  return sqlTransaction(async (client) => {
    const id = await recordEmail(
      {
        eventId: null,
        eventType: null,
        entityId: transactionId,
        template: "checkout_link",
        to: customer.email,
        content: checkoutLinkEmail({
          merchant: settings.merchant_name,
          logoUrl: branding(settings).logoUrl,
          customerName: customer.name,
          link,
          total: documentMoney(t.grand_total, t.currency_code),
          recurring: t.recurring,
        }),
      },
      client,
    );
    await queueDelivery(client, [id]);
    return { id, to: customer.email, status: "pending" };
  });
}
