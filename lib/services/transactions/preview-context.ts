/**
 * Totals without saving anything: POST /transactions/preview (preview.ts: a transaction's items,
 * references and discount, priced as a basket) and POST /pricing-preview (pricing-preview.ts:
 * catalogue prices for a pricing page, each priced on its own, with formatted amounts). Shapes as
 * in the API family. This file loads and checks what a preview names.
 *
 * Decisions:
 * - The customer's country comes from `address_id` (an address of `customer_id`) or from `address`
 *   (`country_code`, `postal_code`); `customer_ip_address` is accepted and echoed but not located
 *   (no geolocation database is shipped): without an address no tax is charged.
 * - Non-catalogue prices and discounts are priced as sent and not created: their `id` is null.
 * - `currency_code` defaults as for transactions: the first price as the customer's country sees it.
 */
import { pool } from "../../db/connection.ts";
import type { PreviewTransactionInput, PricingPreviewInput } from "../../schemas/transaction.ts";
import { defaultCurrency, pricedIn } from "./details.ts";
import { type ResolvedItem, resolveItems } from "./items.ts";
import {
  type DiscountRef,
  discountCurrencyProblem,
  loadAddress,
  loadBusiness,
  loadCustomer,
  loadDiscount,
  Problems,
} from "./references.ts";

/** Payment methods of the hosted checkout (cards; test cards in the sandbox). */
export const AVAILABLE_PAYMENT_METHODS = ["card"];

export interface Context {
  items: ResolvedItem[];
  customerId: string | null;
  addressId: string | null;
  businessId: string | null;
  country: string | null;
  postalCode: string | null;
  currency: string;
  discount: DiscountRef | null;
}

/** Loads and checks what a preview names; every problem is a field error of the request. */
export async function previewContext(
  input: PreviewTransactionInput | PricingPreviewInput,
  nonCatalogueDiscount: PreviewTransactionInput["discount"],
): Promise<Context> {
  const on = pool();
  const problems = new Problems();
  const items = await resolveItems(input.items, problems, on, false);
  const customerId = input.customer_id ?? null;
  if (customerId) await loadCustomer(customerId, "customer_id", problems, on);
  const address = input.address_id ? await loadAddress(input.address_id, customerId, "address_id", problems, on) : null;
  if (input.business_id) await loadBusiness(input.business_id, customerId, "business_id", problems, on);
  let discount = input.discount_id ? await loadDiscount(input.discount_id, "discount_id", problems, on) : null;
  problems.throwIfAny();

  const country = address?.countryCode ?? input.address?.country_code ?? null;
  const postalCode = address ? address.postalCode : (input.address?.postal_code ?? null);
  const currency = input.currency_code ?? defaultCurrency(items, country);
  if (nonCatalogueDiscount) {
    discount = {
      id: "",
      mode: "custom",
      json: "",
      type: nonCatalogueDiscount.type,
      amount: nonCatalogueDiscount.amount,
      currency_code: nonCatalogueDiscount.type === "percentage" ? null : currency,
      restrict_to: nonCatalogueDiscount.restrict_to?.length ? nonCatalogueDiscount.restrict_to : null,
    };
  }
  for (const item of items) {
    if (pricedIn(item.price, country, currency)) continue;
    const where = country ? ` for customers in ${country}` : "";
    if (item.catalogue)
      problems.field(`${item.field}.price_id`, `${item.price.id} has no unit price in ${currency}${where}`);
    else
      problems.field(`${item.field}.price.unit_price.currency_code`, `is not ${currency}: the transaction's currency`);
  }
  if (discount && input.discount_id) {
    const problem = discountCurrencyProblem(discount, currency);
    if (problem) problems.field("discount_id", `${input.discount_id} ${problem}`);
  }
  problems.throwIfAny();
  return {
    items,
    customerId,
    addressId: input.address_id ?? null,
    businessId: input.business_id ?? null,
    country,
    postalCode,
    currency,
    discount,
  };
}

export function previewAddress(context: Context) {
  return context.country ? { postal_code: context.postalCode, country_code: context.country } : null;
}
