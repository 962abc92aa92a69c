/**
 * The customer portal (decision: portal-tokens): the API's portal-session and auth-token bodies and
 * answers, and the narrow bodies the portal's own endpoints (app/portal/api/**) accept.
 */
import { z } from "zod";
import { updateAddressBody } from "./address.ts";
import { updateBusinessBody } from "./business.ts";
import { entityId } from "./common.ts";

export const MAX_PORTAL_SUBSCRIPTIONS = 25;

/** POST /customers/{customer_id}/portal-sessions: `{}` or no body at all is fine. */
export const createPortalSessionBody = z
  .strictObject({
    subscription_ids: z
      .array(entityId("sub"), { error: "must be an array of subscription IDs" })
      .max(MAX_PORTAL_SUBSCRIPTIONS, `must list at most ${MAX_PORTAL_SUBSCRIPTIONS} subscriptions`)
      .optional(),
  })
  .optional();
export type CreatePortalSessionInput = z.infer<typeof createPortalSessionBody>;

export const portalSessionSchema = z.object({
  id: z.string(),
  customer_id: z.string(),
  urls: z.object({
    general: z.object({ overview: z.string() }),
    subscriptions: z.array(
      z.object({ id: z.string(), cancel_subscription: z.string(), update_subscription_payment_method: z.string() }),
    ),
  }),
  created_at: z.string(),
});
export type PortalSession = z.infer<typeof portalSessionSchema>;

export const customerAuthTokenSchema = z.object({ customer_auth_token: z.string(), expires_at: z.string() });
export type CustomerAuthToken = z.infer<typeof customerAuthTokenSchema>;

// --- The portal's own endpoints ------------------------------------------------------------------

export const portalSubscriptionParams = z.object({ subscription_id: entityId("sub") });
export const portalTransactionParams = z.object({ transaction_id: entityId("txn") });
export const portalAddressParams = z.object({ address_id: entityId("add") });
export const portalBusinessParams = z.object({ business_id: entityId("biz") });

/**
 * What a customer may change of a billing address: the lines, not the country (a new country
 * changes taxes and prices: the merchant does that) nor `custom_data` or `status` (the merchant's).
 */
export const portalAddressBody = updateAddressBody.pick({
  first_line: true,
  second_line: true,
  city: true,
  postal_code: true,
  region: true,
});
export type PortalAddressInput = z.infer<typeof portalAddressBody>;

/** What a customer may change of a business: its name, company number and tax ID. */
export const portalBusinessBody = updateBusinessBody.pick({ name: true, company_number: true, tax_identifier: true });
export type PortalBusinessInput = z.infer<typeof portalBusinessBody>;

/** Cancel from the portal: always at the end of the billing period (decision: cancel-rules), confirmed. */
/** The portal's plan change and its preview: one of the plans the merchant offers (plans.ts). */
export const portalPlanBody = z.strictObject({ price_id: entityId("pri") });
export type PortalPlanInput = z.infer<typeof portalPlanBody>;

export const portalCancelBody = z.strictObject({
  confirm: z.literal(true, { error: "must be true: the customer confirmed the cancellation" }),
});
