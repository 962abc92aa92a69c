/**
 * Checkout domains (`chedom_`): the websites allowed to use the client-side library's endpoints
 * (app/js-api) with a client-side token. The shape, statuses, list filters and operations are the
 * API family's (its SDKs' CheckoutDomain entity and the family's checkout-domains reference);
 * what they mean in a self-hosted deployment: lib/services/checkout-domains.ts.
 */
import { z } from "zod";
import { csv, entityId, listQuery } from "./common.ts";

/** The family's approval statuses. Ours are `approved` when added (lib/services/checkout-domains.ts). */
export const CHECKOUT_DOMAIN_STATUSES = [
  "pending_review",
  "approved",
  "rejected",
  "in_review",
  "action_required",
] as const;

export const PAYMENT_METHOD_VERIFICATION_STATUSES = ["verified", "unverified"] as const;

/** The payment methods a domain can be verified for: the family has Apple Pay only. */
export const VERIFIABLE_PAYMENT_METHODS = ["apple_pay"] as const;

/** A checkout domain, fields in the family's order. */
export const checkoutDomainSchema = z.object({
  id: z.string(),
  domain: z.string(),
  status: z.enum(CHECKOUT_DOMAIN_STATUSES),
  payment_method_verification: z.object({
    apple_pay: z.object({ status: z.enum(PAYMENT_METHOD_VERIFICATION_STATUSES) }),
  }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CheckoutDomain = z.infer<typeof checkoutDomainSchema>;

/** Longest domain name (RFC 1035: 253 characters written without the final dot). */
export const DOMAIN_MAX = 253;

const DOMAIN_MESSAGE = "must be a domain name such as shop.example.com, without https://, a port or a path";

/**
 * Why `value` is not a domain a checkout can be opened from, or null with its canonical form:
 * lower case, IDNs as punycode (the form browsers send in `Origin`), no final dot. A host name
 * of two labels or more, each 1-63 letters, digits and hyphens (not first or last); not an IP
 * address (a top-level label of digits), not a single label (`localhost`), no scheme, port,
 * path, credentials or wildcard. Uses only the URL parser, so the dashboard's form runs it too.
 */
export function canonicalDomain(value: string): { domain: string } | { problem: string } {
  const trimmed = value.trim().replace(/\.$/, "");
  if (trimmed === "") return { problem: DOMAIN_MESSAGE };
  if (trimmed.length > DOMAIN_MAX) return { problem: `must be at most ${DOMAIN_MAX} characters` };
  if (/[\s/\\:@?#*%[\]]/.test(trimmed)) return { problem: DOMAIN_MESSAGE };
  let host: string;
  try {
    host = new URL(`http://${trimmed}`).hostname;
  } catch {
    return { problem: DOMAIN_MESSAGE };
  }
  if (host.length > DOMAIN_MAX) return { problem: `must be at most ${DOMAIN_MAX} characters` };
  const labels = host.split(".");
  if (labels.length < 2) return { problem: "must be a full domain name with a dot, such as shop.example.com" };
  if (!labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label))) {
    return { problem: DOMAIN_MESSAGE };
  }
  if (/^\d+$/.test(labels.at(-1) ?? "")) return { problem: "must be a domain name, not an IP address" };
  return { domain: host };
}

/** A domain name in a body or query: checked and turned into its canonical form. */
export const domainName = z
  .string({ error: "must be a string" })
  .max(DOMAIN_MAX * 4, { error: `must be at most ${DOMAIN_MAX} characters`, abort: true })
  .transform((value, ctx) => {
    const result = canonicalDomain(value);
    if ("problem" in result) {
      ctx.addIssue({ code: "custom", message: result.problem });
      return z.NEVER;
    }
    return result.domain;
  });

/**
 * POST /checkout-domains: the family's create (its partner API's `{domain}`, 201). The family's
 * own dashboard adds domains for sellers; ours is an API client like any other, so it is here.
 */
export const createCheckoutDomainBody = z.strictObject({ domain: domainName });
export type CreateCheckoutDomainInput = z.infer<typeof createCheckoutDomainBody>;

/** POST /checkout-domains/{id}/verify-payment-method. */
export const verifyCheckoutDomainPaymentMethodBody = z.strictObject({
  payment_method: z.enum(VERIFIABLE_PAYMENT_METHODS, { error: "must be apple_pay" }),
});
export type VerifyCheckoutDomainPaymentMethodInput = z.infer<typeof verifyCheckoutDomainPaymentMethodBody>;

export const checkoutDomainParams = z.object({ checkout_domain_id: entityId("chedom") });

/**
 * The family's list: `id`, `after`, `per_page`, `order_by` (id, created_at, updated_at; newest
 * first by default), `status`, and `domain` (that name, its ancestors and its subdomains).
 */
export const listCheckoutDomainsQuery = z.object({
  ...listQuery(["id", "created_at", "updated_at"], "desc"),
  id: csv(entityId("chedom")).optional(),
  status: csv(
    z.enum(CHECKOUT_DOMAIN_STATUSES, { error: `must be one of ${CHECKOUT_DOMAIN_STATUSES.join(", ")}` }),
  ).optional(),
  domain: domainName.optional(),
});
export type ListCheckoutDomainsQuery = z.infer<typeof listCheckoutDomainsQuery>;
