import { z } from "zod";
import { postalCodeProblem } from "./address.ts";
import { csv, email, entityId, listQuery, maxText, requiredText, successUrl } from "./common.ts";
import { currencyCode } from "./price.ts";
import { itemQuantity, MAX_ITEMS, previewAddress } from "./transaction.ts";

export const CLIENT_TOKEN_STATUSES = ["active", "revoked"] as const;
export type ClientTokenStatus = (typeof CLIENT_TOKEN_STATUSES)[number];

/**
 * A client-side token (spec: Client-side token), fields in the spec's order. `token` is returned on
 * every read, as in the API family: it is meant to be published in the merchant's web pages.
 */
export const clientTokenSchema = z.object({
  id: z.string(),
  token: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(CLIENT_TOKEN_STATUSES),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ClientToken = z.infer<typeof clientTokenSchema>;

/**
 * Longest description taken. The API family documents no limit; 500, as for API keys and
 * notification destinations, keeps a description a description.
 */
export const CLIENT_TOKEN_DESCRIPTION_MAX = 500;

export const createClientTokenBody = z.strictObject({
  name: requiredText(150),
  description: maxText(CLIENT_TOKEN_DESCRIPTION_MAX).nullable().optional(),
});
export type CreateClientTokenInput = z.infer<typeof createClientTokenBody>;

/**
 * PATCH: `status` as in the API family (`revoked` revokes; `active` changes nothing on an active
 * token, and a revoked one cannot come back: lib/services/client-tokens.ts), and, our extension,
 * `name` and `description`. At least one field.
 */
export const updateClientTokenBody = z
  .strictObject({
    status: z.enum(CLIENT_TOKEN_STATUSES, { error: "must be active or revoked" }).optional(),
    name: requiredText(150).optional(),
    description: maxText(CLIENT_TOKEN_DESCRIPTION_MAX).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: "must be sent: the request changes nothing without it",
    path: ["status"],
  });
export type UpdateClientTokenInput = z.infer<typeof updateClientTokenBody>;

export const clientTokenParams = z.object({ client_token_id: entityId("ctkn") });

export const listClientTokensQuery = z.object({
  ...listQuery(["id"]),
  status: csv(z.enum(CLIENT_TOKEN_STATUSES, { error: "must be active or revoked" })).optional(),
});
export type ListClientTokensQuery = z.infer<typeof listClientTokensQuery>;

// ---------------------------------------------------------------------------------------------
// The client-side library's endpoints (app/js-api): what a web page may send with a token. Narrow
// on purpose: catalogue prices and the buyer's country, nothing that reads or names the merchant's
// other data (no discounts, no businesses, no custom data, no non-catalogue prices).

/** Catalogue items `[{price_id, quantity}]`, 1 to MAX_ITEMS: what a page or a payment link may buy. */
export const catalogueItems = z
  .array(
    z.strictObject(
      { price_id: entityId("pri"), quantity: itemQuantity },
      { error: "must be an object with price_id and quantity" },
    ),
    { error: "must be an array of items" },
  )
  .min(1, `must have 1 to ${MAX_ITEMS} items`)
  .max(MAX_ITEMS, `must have 1 to ${MAX_ITEMS} items`);

/** POST /js-api/pricing-preview: catalogue prices as a buyer in `address.country_code` sees them. */
export const jsPricingPreviewBody = z.strictObject({
  items: catalogueItems,
  address: previewAddress.nullable().optional(),
  currency_code: currencyCode.nullable().optional(),
});
export type JsPricingPreviewInput = z.infer<typeof jsPricingPreviewBody>;

/**
 * POST /js-api/checkout: a ready, automatically-collected transaction of `items` for the customer
 * with `email` (found among active customers, or created) or `id`, in `address` (an address of
 * that customer with this country and postal code, or a new one).
 */
export const jsCheckoutBody = z
  .strictObject({
    items: catalogueItems,
    customer: z
      .strictObject(
        { email: email.optional(), id: entityId("ctm").optional() },
        { error: "must be an object with email or id" },
      )
      .refine((c) => (c.email === undefined) !== (c.id === undefined), "must have either email or id, not both"),
    address: previewAddress,
    currency_code: currencyCode.nullable().optional(),
    /** Ours, the family's Paddle.js `settings.successUrl`: where the checkout sends the buyer after paying. */
    success_url: successUrl.nullable().optional(),
  })
  .superRefine((body, ctx) => {
    const problem = postalCodeProblem(body.address.country_code, body.address.postal_code);
    if (problem) ctx.addIssue({ code: "custom", path: ["address", "postal_code"], message: problem });
  });
export type JsCheckoutInput = z.infer<typeof jsCheckoutBody>;

/** What the checkout endpoint answers: the transaction and where the buyer pays it. */
export const jsCheckoutSchema = z.object({
  transaction_id: z.string(),
  status: z.string(),
  checkout: z.object({ url: z.string() }),
});
export type JsCheckout = z.infer<typeof jsCheckoutSchema>;
