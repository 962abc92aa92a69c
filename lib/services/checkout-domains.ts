/**
 * Checkout domains (`chedom_`): the websites whose pages may use the client-side library's
 * endpoints (app/js-api: pricing previews and opening checkouts) with a client-side token.
 *
 * Decisions where the API family's words do not fit a self-hosted deployment:
 * - Approval. The family reviews each domain (live: `pending_review`, then `approved` or
 *   `rejected`; sandbox: `approved` at once). Here nobody stands between the merchant and their
 *   own server: the staff member (or API key with checkout_domain.write) who adds a domain is the
 *   reviewer, so a domain is `approved` when added, in both environments. The other statuses are
 *   kept in the shape (and the list filter) so that the family's clients parse them; nothing here
 *   sets them. Adding is the family's partner API's `POST /checkout-domains` (201).
 * - What approval does (lib/services/checkout-origins.ts): while the list is empty every website
 *   may use a client-side token (as before this list existed); once it has an approved domain,
 *   only pages of an approved domain (exact host; subdomains are added one by one, as in the
 *   family), of this server's own PUBLIC_URL, or of loopback (local development, as the family
 *   allows) may.
 * - Verification (`verify-payment-method`, Apple Pay only, as in the family): the check the family
 *   documents, done by us: the domain serves Apple's association file
 *   (lib/services/checkout-domain-verification.ts). It proves the file is hosted; we process no
 *   Apple Pay payments ourselves.
 * - A domain is unique (409 conflict names the existing one). DELETE removes it for good (204), as
 *   in the family. The family has no events for checkout domains, so none are written; the audit
 *   log records every change.
 */
import { CHECKOUT_DOMAIN } from "../db/entities/checkout-domain.ts";
import type { RawJson } from "../db/sql.ts";
import {
  deleteRows,
  getJson,
  insertJson,
  type JsonPage,
  listJson,
  Params,
  query,
  uniqueViolation,
  updateJson,
} from "../db/sql.ts";
import { ApiError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type {
  CheckoutDomain,
  CreateCheckoutDomainInput,
  ListCheckoutDomainsQuery,
  VerifyCheckoutDomainPaymentMethodInput,
} from "../schemas/checkout-domain.ts";
import { checkAppleDomainAssociation } from "./checkout-domain-verification.ts";

export async function createCheckoutDomain(input: CreateCheckoutDomainInput): Promise<RawJson<CheckoutDomain>> {
  try {
    return await insertJson(
      CHECKOUT_DOMAIN,
      { id: newId("chedom"), domain: input.domain, status: "approved", apple_pay_status: "unverified" },
      null,
    );
  } catch (error) {
    if (uniqueViolation(error) === "checkout_domains_domain_key") {
      const [existing] = await query<{ id: string }>("SELECT id FROM checkout_domains WHERE domain = $1", [
        input.domain,
      ]);
      throw new ApiError(
        "conflict",
        `The checkout domain ${input.domain} already exists${existing ? ` (${existing.id})` : ""}.`,
      );
    }
    throw error;
  }
}

export async function getCheckoutDomain(id: string): Promise<RawJson<CheckoutDomain>> {
  const domain = await getJson(CHECKOUT_DOMAIN, "t.id = $1", [id]);
  if (!domain) throw notFound(id);
  return domain;
}

/**
 * The family's filters. `domain`: that name, its ancestors and its subdomains (`app.example.com`
 * finds app.example.com, example.com and cool.app.example.com), compared by suffix with `right()`
 * rather than LIKE, so no character of a name acts as a wildcard.
 */
export function listCheckoutDomains(q: ListCheckoutDomainsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.id) filters.push(params.oneOf("t.id", q.id));
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  if (q.domain) {
    const name = params.add(q.domain);
    filters.push(
      `(t.domain = ${name}
        OR right(${name}, length(t.domain) + 1) = '.' || t.domain
        OR right(t.domain, length(${name}) + 1) = '.' || ${name})`,
    );
  }
  return listJson(CHECKOUT_DOMAIN, { filters, params, orderBy: q.order_by, after: q.after, perPage: q.per_page });
}

export async function deleteCheckoutDomain(id: string): Promise<void> {
  const deleted = await deleteRows(CHECKOUT_DOMAIN, { sql: "t.id = $1", values: [id] });
  if (deleted.length === 0) throw notFound(id);
}

/**
 * Apple Pay verification: the domain must be approved (the family's rule) and serve Apple's
 * association file. Success marks it `verified` and answers the domain; a failed check answers
 * 400 bad_request saying what was fetched and what came back, and changes nothing (a domain
 * verified before stays so: re-run the check after fixing the file).
 */
export async function verifyCheckoutDomainPaymentMethod(
  id: string,
  _input: VerifyCheckoutDomainPaymentMethodInput,
): Promise<RawJson<CheckoutDomain>> {
  const [row] = await query<{ domain: string; status: string }>(
    "SELECT domain, status FROM checkout_domains WHERE id = $1",
    [id],
  );
  if (!row) throw notFound(id);
  if (row.status !== "approved") {
    throw new ApiError(
      "bad_request",
      `Checkout domain ${id} is ${row.status}: only an approved domain can be verified for a payment method.`,
    );
  }
  const outcome = await checkAppleDomainAssociation(row.domain);
  if (!outcome.ok) {
    throw new ApiError(
      "bad_request",
      `Apple Pay verification of ${row.domain} failed: ${outcome.url} ${outcome.problem}. Host the Apple Pay domain association file there (served directly over HTTPS with status 200, no redirect), then verify again.`,
    );
  }
  const updated = await updateJson(
    CHECKOUT_DOMAIN,
    { sql: "t.id = $1", values: [id] },
    { apple_pay_status: "verified" },
    null,
  );
  if (!updated) throw notFound(id);
  return updated;
}
