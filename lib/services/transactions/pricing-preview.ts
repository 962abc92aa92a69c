/**
 * POST /pricing-preview: catalogue prices for a pricing page, with formatted amounts, without
 * saving anything (decisions: preview-context.ts).
 *
 * Decision: pricing previews price each item alone (a pricing page shows each price as if bought
 * on its own), so a flat discount applies to each line in full, and `details` has no transaction
 * totals.
 */
import { CURRENCIES, type CurrencyCode, formatMinor, isCurrencyCode } from "../../billing/currencies.ts";
import type { AmountTotals } from "../../billing/totals.ts";
import { pool } from "../../db/connection.ts";
import type { PricingPreviewInput } from "../../schemas/transaction.ts";
import { taxContext, totalsFor } from "./details.ts";
import { AVAILABLE_PAYMENT_METHODS, previewAddress, previewContext } from "./preview-context.ts";

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
    const [line] = computed.line_items;
    if (!line) throw new Error(`no line computed for ${item.price.id}`);
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
