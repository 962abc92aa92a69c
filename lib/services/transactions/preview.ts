/**
 * POST /transactions/preview: a transaction's items, references and discount priced as a basket,
 * without saving anything (decisions: preview-context.ts).
 */
import { pool } from "../../db/connection.ts";
import type { PreviewTransactionInput } from "../../schemas/transaction.ts";
import { taxContext, totalsFor, withItems } from "./details.ts";
import { AVAILABLE_PAYMENT_METHODS, previewAddress, previewContext } from "./preview-context.ts";

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
      line_items: withItems(computed.line_items, counted).map(([line, item]) => ({
        price_id: item.price.id,
        quantity: line.quantity,
        tax_rate: line.tax_rate,
        unit_totals: line.unit_totals,
        totals: line.totals,
        product: item.product,
        proration: null,
      })),
    },
    available_payment_methods: AVAILABLE_PAYMENT_METHODS,
  };
}
