/**
 * Documents (invoice and credit-note PDFs): the query of GET /transactions/{transaction_id}/invoice
 * and GET /adjustments/{adjustment_id}/credit-note, their response, and the query of a signed
 * document link. Client-safe.
 */
import { z } from "zod";
import { entityId } from "./common.ts";

/** As the API family: `attachment` downloads the PDF, `inline` opens it in the browser. */
export const DISPOSITIONS = ["attachment", "inline"] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export const documentPdfQuery = z.object({
  disposition: z.enum(DISPOSITIONS, { error: "must be attachment or inline" }).default("attachment"),
});

/** `data` of GET /transactions/{transaction_id}/invoice (and of the credit note's): a link valid for one hour. */
export const documentUrlSchema = z.object({ url: z.string() });
export type DocumentUrl = z.infer<typeof documentUrlSchema>;

/** GET /transactions/{id}/invoice-link (ours): the hosted invoice page's signed link. */
export const hostedInvoiceLinkSchema = z.object({ url: z.string(), expires_at: z.string() });

/**
 * A signed link's query, taken as it comes: a missing or malformed part makes the link invalid
 * (403 document_link_invalid), not a field error, since nobody is meant to write these by hand.
 */
export const signedLinkQuery = z.object({
  disposition: z.string().optional(),
  expires: z.string().optional(),
  signature: z.string().optional(),
});

export const invoiceDocumentParams = z.object({ transaction_id: entityId("txn") });

export const adjustmentParams = z.object({ adjustment_id: entityId("adj") });
