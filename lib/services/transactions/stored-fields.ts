/** Request fields as a `transactions` row stores them: `billing_details` and `checkout`. */
import { storableJson } from "../../db/sql.ts";
import type { BillingDetails, BillingDetailsInput, CheckoutInput } from "../../schemas/transaction.ts";

export function storedBillingDetails(input: BillingDetailsInput): BillingDetails {
  return {
    enable_checkout: input.enable_checkout ?? false,
    // A string in the API family: "" when none is given (lib/db/entities/billing-details.ts).
    purchase_order_number: input.purchase_order_number ?? "",
    additional_information: input.additional_information ?? null,
    payment_terms: { interval: input.payment_terms.interval, frequency: input.payment_terms.frequency },
  };
}

/**
 * `checkout` as stored: the URL given with `_ptxn=<transaction ID>` appended (the checkout script
 * on that page opens this transaction), as the API family does; null without a URL.
 */
export function checkoutValue(input: CheckoutInput | null, transactionId: string): string | null {
  if (!input?.url) return null;
  const url = new URL(input.url);
  url.searchParams.set("_ptxn", transactionId);
  return storableJson({ url: url.toString() });
}
