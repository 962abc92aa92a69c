/**
 * Payment links (ours, `plink_`; permissions `payment_link.read` / `payment_link.write`): a public
 * page that sells catalogue prices to whoever opens it. Decisions: lib/services/payment-links.ts;
 * the reference: README, Payment links.
 */
import { z } from "zod";
import { postalCodeProblem } from "./address.ts";
import { catalogueItems } from "./client-token.ts";
import { csv, email, entityId, listQuery, successUrl } from "./common.ts";
import { previewAddress } from "./transaction.ts";

export const PAYMENT_LINK_STATUSES = ["active", "archived"] as const;

/** A payment link as the API answers it. */
export const paymentLinkSchema = z.object({
  id: z.string(),
  status: z.enum(PAYMENT_LINK_STATUSES),
  /** The public page, `${PUBLIC_URL}/pay/{id}`: the ID's random part is the capability. */
  url: z.string(),
  items: z.array(z.object({ price_id: z.string(), quantity: z.number().int() })),
  success_url: z.string().nullable(),
  /** false: the link opens one transaction, for one buyer; once that is paid it is used up. */
  reusable: z.boolean(),
  /** A single-use link's transaction, once opened; null before, and always for reusable links. */
  transaction_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PaymentLink = z.infer<typeof paymentLinkSchema>;

export const createPaymentLinkBody = z.strictObject({
  items: catalogueItems,
  success_url: successUrl.nullable().optional(),
  reusable: z.boolean({ error: "must be true or false" }).optional(),
});
export type CreatePaymentLinkInput = z.infer<typeof createPaymentLinkBody>;

/** PATCH: archive (or reactivate) a link, or change where it returns the buyer. At least one field. */
export const updatePaymentLinkBody = z
  .strictObject({
    status: z.enum(PAYMENT_LINK_STATUSES, { error: "must be active or archived" }).optional(),
    success_url: successUrl.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: "must be sent: the request changes nothing without it",
    path: ["status"],
  });
export type UpdatePaymentLinkInput = z.infer<typeof updatePaymentLinkBody>;

export const paymentLinkParams = z.object({ payment_link_id: entityId("plink") });

export const listPaymentLinksQuery = z.object({
  ...listQuery(["id", "created_at", "updated_at"], "desc"),
  id: csv(entityId("plink")).optional(),
  status: csv(z.enum(PAYMENT_LINK_STATUSES, { error: "must be active or archived" })).optional(),
  /** Links that sell this price (any of these prices). */
  price_id: csv(entityId("pri")).optional(),
});
export type ListPaymentLinksQuery = z.infer<typeof listPaymentLinksQuery>;

/** What the public link page sends: who buys and where (the country sets currency and tax). */
export const openPaymentLinkBody = z
  .strictObject({
    email,
    address: previewAddress,
  })
  .superRefine((body, ctx) => {
    const problem = postalCodeProblem(body.address.country_code, body.address.postal_code);
    if (problem) ctx.addIssue({ code: "custom", path: ["address", "postal_code"], message: problem });
  });
export type OpenPaymentLinkInput = z.infer<typeof openPaymentLinkBody>;

/** The answer to opening a link: the transaction and where the buyer pays it. */
export const openedPaymentLinkSchema = z.object({
  transaction_id: z.string(),
  checkout: z.object({ url: z.string() }),
});
export type OpenedPaymentLink = z.infer<typeof openedPaymentLinkSchema>;
