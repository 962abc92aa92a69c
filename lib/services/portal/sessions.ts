/**
 * POST /customers/{customer_id}/portal-sessions and POST /customers/{customer_id}/auth-token
 * (decision: portal-tokens).
 *
 * Decisions:
 * - Sessions are stored (customer_portal_sessions: who, for which subscriptions, when, until when),
 *   so that a merchant can tell which sessions were handed out; their links' token is signed and
 *   self-contained (tokens.ts) and is never stored.
 * - `subscription_ids` (at most 25, duplicates answered once, in the order sent) must name
 *   subscriptions of this customer: an unknown ID and another customer's ID get the same 400
 *   invalid_field on `subscription_ids[i]`, so a key cannot probe other customers' subscriptions
 *   through it. No `subscription_ids` (or `[]`): only the overview link, as in the family.
 * - The token is customer-scoped, not subscription-scoped: like the family's portal, the overview
 *   of any session shows all of the customer's subscriptions; `subscription_ids` only says which
 *   deep links to make. A manually-collected subscription still gets an update-payment-method
 *   link (the family's shape has a string there); the portal page says its invoices are paid by
 *   invoice, not by a saved card.
 * - The portal session is not an event of the family: nothing is emitted.
 * - A customer auth token (`pca_…`, 30 minutes) is made the same way with its own key and scope;
 *   it grants nothing here yet (saved payment methods at checkout would take it: verifyToken
 *   ("customer_auth", …)), and the portal never accepts it.
 */
import { query, queryExactlyOne } from "../../db/sql.ts";
import { invalidField, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { CreatePortalSessionInput, CustomerAuthToken, PortalSession } from "../../schemas/portal.ts";
import { rfc3339 } from "../../timestamps.ts";
import { customerExists } from "../customers.ts";
import { portalUrl } from "./links.ts";
import { issueToken } from "./tokens.ts";

export async function createPortalSession(
  customerId: string,
  input: CreatePortalSessionInput,
  now = Date.now(),
): Promise<PortalSession> {
  const ids = [...new Set(input?.subscription_ids ?? [])];
  if (!(await customerExists(customerId))) throw notFound(customerId);
  if (ids.length > 0) {
    const rows = await query<{ id: string }>("SELECT id FROM subscriptions WHERE id = ANY($1) AND customer_id = $2", [
      ids,
      customerId,
    ]);
    const found = new Set(rows.map((row) => row.id));
    const missing = (input?.subscription_ids ?? []).findIndex((id) => !found.has(id));
    if (missing >= 0) {
      throw invalidField(
        `subscription_ids[${missing}]`,
        `no subscription of customer ${customerId} has the ID ${input?.subscription_ids?.[missing]}`,
      );
    }
  }
  const id = newId("cpls");
  const { token, claims } = await issueToken("portal", customerId, { sessionId: id, now });
  const row = await queryExactlyOne<{ created_at: Date }>(
    `INSERT INTO customer_portal_sessions (id, customer_id, subscription_ids, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5) RETURNING created_at`,
    [id, customerId, ids, new Date(now), new Date(claims.expiresAt * 1000)],
  );
  return {
    id,
    customer_id: customerId,
    urls: {
      general: { overview: portalUrl("overview", undefined, token) },
      subscriptions: ids.map((sub) => ({
        id: sub,
        cancel_subscription: portalUrl("cancel_subscription", sub, token),
        update_subscription_payment_method: portalUrl("update_subscription_payment_method", sub, token),
      })),
    },
    created_at: rfc3339(row.created_at),
  };
}

export async function createCustomerAuthToken(customerId: string, now = Date.now()): Promise<CustomerAuthToken> {
  if (!(await customerExists(customerId))) throw notFound(customerId);
  const { token, claims } = await issueToken("customer_auth", customerId, { now });
  return { customer_auth_token: token, expires_at: rfc3339(new Date(claims.expiresAt * 1000)) };
}
