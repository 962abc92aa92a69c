/**
 * What the client-side library (public/js/billing.js) can do with a client-side token, through
 * its endpoints (app/js-api): preview catalogue prices for a buyer's country, and open a checkout.
 * Both go through the services the API uses (one totals engine, one transaction create).
 *
 * Decisions:
 * - The pricing preview takes catalogue prices, a country and a currency only (no customer,
 *   address, business or discount IDs): a public token must not become a way to probe the
 *   merchant's customers or unpublished discounts.
 * - Opening a checkout: the customer is named by `email` (the active customer with that email,
 *   case-insensitively, else a new one: what a buyer typing an email at a checkout expects) or by
 *   `id` (an active customer; its ID is unguessable and the merchant's page got it from the
 *   merchant's server). The address is the customer's active address with the same country and
 *   postal code, else a new one. Then the transaction is created as the API creates one: with
 *   items, customer and address it is `ready`, automatically collected, and its `checkout.url` is
 *   the hosted checkout.
 * - The items are priced first (a preview, nothing written), so a bad price ID or a price without
 *   a unit price in the currency is refused at once; the customer, address and transaction are then
 *   written in one database transaction, so a refusal by the transaction's own rules (e.g. prices of
 *   different billing cycles) leaves no customer or address behind. A concurrent request creating
 *   the same customer makes this one fail with `customer_already_exists` (409); the page retries.
 * - `success_url` (the library's `successUrl`, as Paddle.js's `settings.successUrl`): https, or
 *   http on loopback (lib/schemas/common.ts successUrl), kept on the transaction (never in its API
 *   shape); the checkout's success page links the buyer back to it after paying.
 * - Both take the request's `Origin`: once the account has approved checkout domains, only their
 *   pages may use the library (lib/services/checkout-origins.ts), checked before anything is read.
 */
import type pg from "pg";
import { type Queryable, query, sqlTransaction } from "../db/sql.ts";
import { ApiError, invalidField } from "../errors.ts";
import type { JsCheckout, JsCheckoutInput, JsPricingPreviewInput } from "../schemas/client-token.ts";
import { createAddress } from "./addresses.ts";
import { assertCheckoutOrigin } from "./checkout-origins.ts";
import { createCustomer } from "./customers.ts";
import { createTransaction } from "./transactions/create.ts";
import { pricingPreview } from "./transactions/pricing-preview.ts";

export async function jsPricingPreview(input: JsPricingPreviewInput, origin: string | null) {
  await assertCheckoutOrigin(origin);
  return pricingPreview({
    items: input.items,
    address: input.address ?? null,
    currency_code: input.currency_code ?? null,
  });
}

async function activeCustomerByEmail(email: string, on: Queryable): Promise<string | null> {
  const [row] = await query<{ id: string }>(
    "SELECT id FROM customers WHERE lower(email) = lower($1) AND status = 'active' ORDER BY id LIMIT 1",
    [email],
    on,
  );
  return row?.id ?? null;
}

/** The customer's ID: found or created by email, or checked by ID. */
export async function checkoutCustomer(customer: JsCheckoutInput["customer"], client: pg.PoolClient): Promise<string> {
  if (customer.id) {
    const [row] = await query<{ status: string }>("SELECT status FROM customers WHERE id = $1", [customer.id], client);
    if (row?.status !== "active") throw invalidField("customer.id", `no active customer has the ID ${customer.id}`);
    return customer.id;
  }
  const email = customer.email as string;
  const found = await activeCustomerByEmail(email, client);
  if (found) return found;
  return (await createCustomer({ email }, client)).parse().id;
}

export async function checkoutAddress(
  customerId: string,
  address: JsCheckoutInput["address"],
  client: pg.PoolClient,
): Promise<string> {
  const postalCode = address.postal_code?.trim() ? address.postal_code : null;
  const [row] = await query<{ id: string }>(
    `SELECT id FROM addresses
      WHERE customer_id = $1 AND status = 'active' AND country_code = $2
        AND coalesce(postal_code, '') = coalesce($3, '')
      ORDER BY id LIMIT 1`,
    [customerId, address.country_code, postalCode],
    client,
  );
  if (row) return row.id;
  const created = await createAddress(
    customerId,
    { country_code: address.country_code, postal_code: postalCode },
    client,
  );
  return created.parse().id;
}

export async function jsOpenCheckout(input: JsCheckoutInput, origin: string | null): Promise<JsCheckout> {
  await assertCheckoutOrigin(origin);
  await pricingPreview({ items: input.items, address: input.address, currency_code: input.currency_code ?? null });
  const written = await sqlTransaction(async (client) => {
    const customerId = await checkoutCustomer(input.customer, client);
    const addressId = await checkoutAddress(customerId, input.address, client);
    const created = await createTransaction(
      {
        items: input.items,
        customer_id: customerId,
        address_id: addressId,
        currency_code: input.currency_code ?? undefined,
        collection_mode: "automatic",
      },
      undefined,
      client,
    );
    // `successUrl` (Paddle.js's settings.successUrl): the checkout's success page links back to it.
    if (input.success_url) {
      await query(
        "UPDATE transactions SET checkout_success_url = $2 WHERE id = $1",
        [created.parse().id, input.success_url],
        client,
      );
    }
    return created;
  });
  const transaction = written.parse();
  const url = transaction.checkout?.url;
  if (!url) throw new ApiError("internal_error", `Transaction ${transaction.id} has no checkout URL.`);
  return { transaction_id: transaction.id, status: transaction.status, checkout: { url } };
}
