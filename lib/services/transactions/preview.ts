/**
 * Totals without saving anything: POST /transactions/preview (a transaction's items, references
 * and discount, priced as a basket) and POST /pricing-preview (catalogue prices for a pricing page,
 * each priced on its own, with formatted amounts). Shapes as in the API family.
 *
 * Decisions:
 * - The customer's country comes from `address_id` (an address of `customer_id`) or from `address`
 *   (`country_code`, `postal_code`); `customer_ip_address` is accepted and echoed but not located
 *   (no geolocation database is shipped): without an address no tax is charged.
 * - Non-catalogue prices and discounts are priced as sent and not created: their `id` is null.
 * - `currency_code` defaults as for transactions: the first price as the customer's country sees it.
 * - Pricing previews price each item alone (a pricing page shows each price as if bought on its
 *   own), so a flat discount applies to each line in full, and `details` has no transaction totals.
 */
import { CURRENCIES, type CurrencyCode, formatMinor, isCurrencyCode } from "../billing/currencies.ts";
import type { AmountTotals } from "../billing/totals.ts";
import { pool } from "../db.ts";
import type { PreviewTransactionInput, PricingPreviewInput } from "../schemas/transaction.ts";
import { defaultCurrency, pricedIn, taxContext, totalsFor } from "./transaction-details.ts";
import { type ResolvedItem, resolveItems } from "./transaction-items.ts";
import {
  type DiscountRef,
  discountCurrencyProblem,
  loadAddress,
  loadBusiness,
  loadCustomer,
  loadDiscount,
  Problems,
} from "./transaction-references.ts";

/** Payment methods of the hosted checkout (cards; test cards in the sandbox). */
const AVAILABLE_PAYMENT_METHODS = ["card"];

interface Context {
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
async function previewContext(
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

function previewAddress(context: Context) {
  return context.country ? { postal_code: context.postalCode, country_code: context.country } : null;
}

export async function previewTransaction(input: PreviewTransactionInput) {
  const context = await previewContext(input, input.discount ?? null);
  const tax = await taxContext(context.country, pool());
  const ignoreTrials = input.ignore_trials ?? false;
  const computed = totalsFor(context.items, {
    currency: context.currency,
    tax,
    discount: context.discount,
    ignoreTrials,
  });
  const counted = context.items.filter((item) => item.includeInTotals);
  return {
    customer_id: context.customerId,
    address_id: context.addressId,
    business_id: context.businessId,
    currency_code: context.currency,
    discount_id: input.discount_id ?? null,
    customer_ip_address: input.customer_ip_address ?? null,
    address: previewAddress(context),
    ignore_trials: ignoreTrials,
    items: context.items.map((item) => ({
      price: item.price,
      quantity: item.quantity,
      include_in_totals: item.includeInTotals,
      proration: null,
    })),
    details: {
      tax_rates_used: computed.tax_rates_used,
      totals: computed.totals,
      line_items: computed.line_items.map((line, i) => ({
        price_id: counted[i].price.id,
        quantity: line.quantity,
        tax_rate: line.tax_rate,
        unit_totals: line.unit_totals,
        totals: line.totals,
        product: counted[i].product,
        proration: null,
      })),
    },
    available_payment_methods: AVAILABLE_PAYMENT_METHODS,
  };
}

const formats = new Map<string, Intl.NumberFormat>();

/**
 * `"1050"` USD → `"$10.50"`: the amount in the currency's major unit with its symbol. Exact: the
 * decimal string is formatted as is (Intl formats strings without a float).
 */
export function formatAmount(amount: string, currency: string): string {
  if (!isCurrencyCode(currency)) return amount;
  let format = formats.get(currency);
  if (!format) {
    const digits = CURRENCIES[currency];
    format = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formats.set(currency, format);
  }
  return format.format(formatMinor(amount, currency as CurrencyCode) as `${number}`);
}

function formatted(totals: AmountTotals, currency: string): AmountTotals {
  return {
    subtotal: formatAmount(totals.subtotal, currency),
    discount: formatAmount(totals.discount, currency),
    tax: formatAmount(totals.tax, currency),
    total: formatAmount(totals.total, currency),
  };
}

export async function pricingPreview(input: PricingPreviewInput) {
  const context = await previewContext(input, null);
  const tax = await taxContext(context.country, pool());
  const currency = context.currency;
  const discountJson = context.discount?.json ? JSON.parse(context.discount.json) : null;
  const lineItems = context.items.map((item) => {
    const computed = totalsFor([item], { currency, tax, discount: context.discount });
    const line = computed.line_items[0];
    return {
      price: item.price,
      quantity: item.quantity,
      tax_rate: line.tax_rate,
      unit_totals: line.unit_totals,
      formatted_unit_totals: formatted(line.unit_totals, currency),
      totals: line.totals,
      formatted_totals: formatted(line.totals, currency),
      product: item.product,
      discounts:
        discountJson && line.totals.discount !== "0"
          ? [
              {
                discount: discountJson,
                total: line.totals.discount,
                formatted_total: formatAmount(line.totals.discount, currency),
              },
            ]
          : [],
    };
  });
  return {
    customer_id: context.customerId,
    address_id: context.addressId,
    business_id: context.businessId,
    currency_code: currency,
    discount_id: input.discount_id ?? null,
    address: previewAddress(context),
    customer_ip_address: input.customer_ip_address ?? null,
    items: context.items.map((item) => ({ price_id: item.price.id, quantity: item.quantity })),
    details: { line_items: lineItems },
    available_payment_methods: AVAILABLE_PAYMENT_METHODS,
  };
}
