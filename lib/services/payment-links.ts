/**
 * Payment links (ours, `plink_`): catalogue prices sold through a public page, `/pay/{id}`, that a
 * merchant sends or publishes (the family has no such entity; Stripe's Payment Links are the model).
 *
 * Decisions:
 * - The link's URL is `${PUBLIC_URL}/pay/{id}`: the ID is the capability, as a transaction's ID is
 *   the checkout link's (docs/architecture.md, Public links are unguessable): time-ordered in its first characters, random in
 *   the other 15 (75 bits), so no link can be guessed from another.
 * - Opening a link (app/pay, POST /api/checkout/payment-links/{id}) asks the buyer for an email and
 *   a country (and a postal code where the country needs one), then does what the client-side
 *   library's checkout does (client-library.ts): the active customer with that email or a new one,
 *   an address in that country, a ready automatically-collected transaction of the link's items
 *   (currency and tax from the country: its price overrides apply), and the buyer goes to its hosted
 *   checkout. A link with recurring prices starts a subscription when that checkout is paid.
 * - `reusable` (default true) opens a new transaction for every buyer. A single-use link opens one
 *   transaction (kept in `transaction_id`): opened again while that transaction can still be paid it
 *   leads to the same checkout (the link is for one buyer), and once it is paid, or canceled, it
 *   refuses with `payment_link_used`.
 * - `status` is `active` or `archived` (PATCH, as products and prices are archived in the family);
 *   an archived link refuses to open (`payment_link_archived`) and can be made active again. Links
 *   are never deleted: transactions keep `payment_link_id` (internal) to say where they came from.
 * - `success_url` (https, or http on loopback: lib/schemas/common.ts successUrl) is copied to the
 *   transaction when the link opens it: the checkout's success page links back to it, as it does
 *   for the client-side library's `successUrl`.
 * - Items are checked when the link is made (each price exists and is active, recurring prices
 *   share one cycle and trial, at most 100 items), so a link that is created can be paid; a price
 *   archived later makes the link refuse to open with the transaction's own error.
 * - No events: the family has no payment link events; the audit log records every change, and the
 *   transactions a link opens emit theirs.
 */

import type pg from "pg";
import { pool } from "../db/connection.ts";
import { PAYMENT_LINK } from "../db/entities/payment-link.ts";
import { checkoutUrlPrefix } from "../db/entities/transaction.ts";
import {
  getJson,
  insertJson,
  type JsonPage,
  jsonb,
  listJson,
  Params,
  query,
  type RawJson,
  sqlTransaction,
  updateJson,
} from "../db/sql.ts";
import { ApiError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type {
  CreatePaymentLinkInput,
  ListPaymentLinksQuery,
  OpenedPaymentLink,
  OpenPaymentLinkInput,
  PaymentLink,
  UpdatePaymentLinkInput,
} from "../schemas/payment-link.ts";
import { checkoutAddress, checkoutCustomer } from "./client-library.ts";
import { createTransaction } from "./transactions/create.ts";
import { resolveItems } from "./transactions/items.ts";
import { pricingPreview } from "./transactions/pricing-preview.ts";
import { Problems } from "./transactions/references.ts";
import { recurringItemProblems } from "./transactions/rules.ts";

export async function createPaymentLink(input: CreatePaymentLinkInput): Promise<RawJson<PaymentLink>> {
  const problems = new Problems();
  const items = await resolveItems(input.items, problems, pool(), false);
  problems.throwIfAny();
  recurringItemProblems(items, problems);
  problems.throwIfAny();
  return insertJson(
    PAYMENT_LINK,
    {
      id: newId("plink"),
      items: jsonb(input.items.map((item) => ({ price_id: item.price_id, quantity: item.quantity }))),
      success_url: input.success_url ?? null,
      reusable: input.reusable ?? true,
    },
    null,
  );
}

export async function getPaymentLink(id: string): Promise<RawJson<PaymentLink>> {
  const link = await getJson(PAYMENT_LINK, "t.id = $1", [id]);
  if (!link) throw notFound(id);
  return link;
}

export function listPaymentLinks(q: ListPaymentLinksQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.id) filters.push(params.oneOf("t.id", q.id));
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  if (q.price_id) {
    filters.push(
      `EXISTS (SELECT 1 FROM jsonb_array_elements(t.items) i WHERE i->>'price_id' = ANY(${params.add(q.price_id)}::text[]))`,
    );
  }
  return listJson(PAYMENT_LINK, { filters, params, orderBy: q.order_by, after: q.after, perPage: q.per_page });
}

export async function updatePaymentLink(id: string, input: UpdatePaymentLinkInput): Promise<RawJson<PaymentLink>> {
  const updated = await updateJson(
    PAYMENT_LINK,
    { sql: "t.id = $1", values: [id] },
    { status: input.status, success_url: input.success_url },
    null,
  );
  if (!updated) throw notFound(id);
  return updated;
}

// ---------------------------------------------------------------------------------------------
// The public side: what the link's page shows, and opening it.

interface LinkRow {
  id: string;
  status: string;
  items: { price_id: string; quantity: number }[];
  success_url: string | null;
  reusable: boolean;
  transaction_id: string | null;
}

/** What the public page needs to know before asking anything. */
export type PaymentLinkState =
  | { state: "open"; items: LinkRow["items"] }
  /** A single-use link already opened, whose transaction can still be paid: go straight there. */
  | { state: "opened"; checkoutUrl: string }
  | { state: "archived" }
  | { state: "used" };

const OPEN_TRANSACTION_STATUSES = new Set(["draft", "ready", "billed", "past_due"]);

async function linkRow(id: string, on: pg.PoolClient | undefined, lock: boolean): Promise<LinkRow | null> {
  const [row] = await query<LinkRow>(
    `SELECT id, status, items, success_url, reusable, transaction_id FROM payment_links WHERE id = $1${lock ? " FOR UPDATE" : ""}`,
    [id],
    on,
  );
  return row ?? null;
}

async function openedTransaction(transactionId: string, on?: pg.PoolClient): Promise<string | null> {
  // A link's transactions are automatically collected: their checkout is ours unless one was stored.
  const [row] = await query<{ status: string; url: string }>(
    "SELECT t.status, coalesce(t.checkout->>'url', $2 || t.id) AS url FROM transactions t WHERE t.id = $1",
    [transactionId, checkoutUrlPrefix()],
    on,
  );
  return row && OPEN_TRANSACTION_STATUSES.has(row.status) ? row.url : null;
}

export async function paymentLinkState(id: string): Promise<PaymentLinkState> {
  const row = await linkRow(id, undefined, false);
  if (!row) throw notFound(id);
  if (row.status !== "active") return { state: "archived" };
  if (!row.reusable && row.transaction_id) {
    const url = await openedTransaction(row.transaction_id);
    return url ? { state: "opened", checkoutUrl: url } : { state: "used" };
  }
  return { state: "open", items: row.items };
}

/** The link's items priced for a buyer in `country` (or in the prices' own currency, unknown country). */
export function paymentLinkPrices(items: LinkRow["items"], country: string | null) {
  return pricingPreview({ items, address: country ? { country_code: country } : null, currency_code: null });
}

function archived(id: string): ApiError {
  return new ApiError("payment_link_archived", `Payment link ${id} is archived: it no longer opens a checkout.`);
}

function used(id: string): ApiError {
  return new ApiError(
    "payment_link_used",
    `Payment link ${id} is single-use and has been used: it opens no other checkout. Ask the seller for a new link.`,
  );
}

/**
 * Opens a link for a buyer: the transaction (and, for a new buyer, the customer and the address) in
 * one database transaction, the link's row locked so that a single-use link opens exactly one.
 */
export async function openPaymentLink(id: string, input: OpenPaymentLinkInput): Promise<OpenedPaymentLink> {
  return sqlTransaction(async (client) => {
    const link = await linkRow(id, client, true);
    if (!link) throw notFound(id);
    if (link.status !== "active") throw archived(id);
    if (!link.reusable && link.transaction_id) {
      const url = await openedTransaction(link.transaction_id, client);
      if (!url) throw used(id);
      return { transaction_id: link.transaction_id, checkout: { url } };
    }
    const customerId = await checkoutCustomer({ email: input.email }, client);
    const addressId = await checkoutAddress(customerId, input.address, client);
    const transaction = (
      await createTransaction(
        { items: link.items, customer_id: customerId, address_id: addressId, collection_mode: "automatic" },
        undefined,
        client,
      )
    ).parse();
    await query(
      "UPDATE transactions SET checkout_success_url = $2, payment_link_id = $3 WHERE id = $1",
      [transaction.id, link.success_url, id],
      client,
    );
    if (!link.reusable) {
      await query(
        "UPDATE payment_links SET transaction_id = $2, updated_at = now() WHERE id = $1",
        [id, transaction.id],
        client,
      );
    }
    const url = transaction.checkout?.url;
    if (!url) throw new ApiError("internal_error", `Transaction ${transaction.id} has no checkout URL.`);
    return { transaction_id: transaction.id, checkout: { url } };
  });
}
