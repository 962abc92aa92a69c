/**
 * What a customer can do in the portal (decision: cancel-rules; the family's portal cancels at the end of
 * the period and does not pause). Each action first checks that the entity is the customer's
 * (another customer's is "not found", like an unknown ID), then goes through the same operation
 * the API uses, so the same rules, events and webhooks follow.
 */

import { checkoutUrl } from "../../db/entities/transaction.ts";
import { query } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import { type FileResult, RedirectResult } from "../../http/results.ts";
import type { PortalAddressInput, PortalBusinessInput } from "../../schemas/portal.ts";
import { updateAddress } from "../addresses.ts";
import { updateBusiness } from "../businesses.ts";
import { invoicePdf, pdfFile } from "../documents.ts";
import { cancelSubscription } from "../subscriptions/cancel.ts";
import { paymentMethodTransaction } from "../subscriptions/payment-method-transaction.ts";
import { portalAccess, portalCookieValue } from "./access.ts";

async function ownSubscription(customerId: string, subscriptionId: string): Promise<{ status: string }> {
  const [row] = await query<{ status: string }>("SELECT status FROM subscriptions WHERE id = $1 AND customer_id = $2", [
    subscriptionId,
    customerId,
  ]);
  if (!row) throw notFound(subscriptionId);
  return row;
}

/**
 * Cancel at the end of the billing period (lib/services/subscriptions/cancel.ts). A paused
 * subscription has no period running: it is canceled now, as the API's default for paused ones.
 */
export async function portalCancel(customerId: string, subscriptionId: string) {
  const { status } = await ownSubscription(customerId, subscriptionId);
  const json = await cancelSubscription(subscriptionId, {
    effective_from: status === "paused" ? "immediately" : "next_billing_period",
  });
  const sub = json.parse();
  return { id: sub.id, status: sub.status, scheduled_change: sub.scheduled_change };
}

/**
 * The hosted checkout that updates the subscription's card (decision: payment-method-transaction): the past-due
 * transaction while in dunning (paying it recovers the subscription), else a zero-value one. Always
 * our own hosted checkout (not a checkout URL the merchant set on a transaction): the portal is ours.
 */
export async function portalPaymentMethodCheckout(customerId: string, subscriptionId: string) {
  await ownSubscription(customerId, subscriptionId);
  const transaction = (await paymentMethodTransaction(subscriptionId)).parse();
  return {
    transaction_id: transaction.id,
    checkout_url: checkoutUrl(transaction.id),
  };
}

/** Edits one of the customer's addresses (updateAddress is filtered by customer already). */
export function portalUpdateAddress(customerId: string, addressId: string, input: PortalAddressInput) {
  return updateAddress(customerId, addressId, input);
}

export function portalUpdateBusiness(customerId: string, businessId: string, input: PortalBusinessInput) {
  return updateBusiness(customerId, businessId, input);
}

/**
 * The invoice PDF of one of the customer's transactions, downloaded from the portal. A download
 * whose portal session is gone (the cookie expired while the page stayed open) leads to the page
 * that says so, not to an error body.
 */
export async function portalInvoiceDownload(
  request: Request,
  transactionId: string,
): Promise<FileResult | RedirectResult> {
  const access = await portalAccess(portalCookieValue(request.headers.get("cookie")));
  if (!access.ok) {
    return new RedirectResult(`/portal/link?reason=${access.reason}`);
  }
  const [row] = await query("SELECT 1 FROM transactions WHERE id = $1 AND customer_id = $2", [
    transactionId,
    access.customerId,
  ]);
  if (!row) throw notFound(transactionId);
  const { bytes, fileName } = await invoicePdf(transactionId);
  return pdfFile(bytes, fileName, "attachment");
}
