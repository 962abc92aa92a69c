/**
 * Where the portal's links lead (app/portal/**), on the service's public address (PUBLIC_URL: the
 * same base as the hosted checkout's and the documents' links).
 *
 *   {PUBLIC_URL}/portal/overview?token=pga_…
 *   {PUBLIC_URL}/portal/subscriptions/{sub}/cancel?token=pga_…
 *   {PUBLIC_URL}/portal/subscriptions/{sub}/update-payment-method?token=pga_…
 *
 * The same paths without `token` are the plain `management_urls` (managementUrls below; its SQL
 * twin renders them in lib/db/entities/subscription.ts, and lib/services/subscriptions/
 * subscription-shape.test.ts holds the two together), given to keys without
 * customer_portal_session.write: opened as they are, the portal explains that the link must be
 * opened from the merchant's app or email (app/portal/access.tsx).
 */
import { config } from "../../config.ts";

export type PortalAction = "overview" | "cancel_subscription" | "update_subscription_payment_method";

export function portalPath(action: PortalAction, subscriptionId?: string): string {
  if (action === "overview" || !subscriptionId) return "/portal/overview";
  return subscriptionPagePath(subscriptionId, action === "cancel_subscription" ? "cancel" : "update-payment-method");
}

/** A subscription's page in the portal (app/portal/subscriptions/[subscription_id]/…). */
export function subscriptionPagePath(
  subscriptionId: string,
  page: "cancel" | "update-payment-method" | "change-plan",
): string {
  return `/portal/subscriptions/${encodeURIComponent(subscriptionId)}/${page}`;
}

/** An authenticated portal link (`token` null: the plain one). */
export function portalUrl(action: PortalAction, subscriptionId: string | undefined, token: string | null): string {
  const url = `${config.publicUrl}${portalPath(action, subscriptionId)}`;
  return token ? `${url}?token=${encodeURIComponent(token)}` : url;
}

/**
 * A subscription's `management_urls` (`token` null: the plain links): `update_payment_method` only
 * for automatic collection (a manual subscription pays invoices, it has no card to update).
 */
export function managementUrls(
  subscriptionId: string,
  collectionMode: string,
  token: string | null,
): { update_payment_method: string | null; cancel: string } {
  return {
    update_payment_method:
      collectionMode === "automatic" ? portalUrl("update_subscription_payment_method", subscriptionId, token) : null,
    cancel: portalUrl("cancel_subscription", subscriptionId, token),
  };
}
