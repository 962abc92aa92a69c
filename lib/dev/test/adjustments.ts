/**
 * Completed transactions for adjustment tests, through the real payments flow (lib/services/payments/checkout.ts):
 * a ready automatically-collected transaction is paid at the hosted checkout with the sandbox's
 * 4242 card; a billed manual invoice is marked paid (offline). Fees are the defaults (5% + 50).
 */
import type { CardPaymentInput } from "../../schemas/payment.ts";
import { payAtCheckout } from "../../services/payments/checkout.ts";
import { markPaid } from "../../services/payments/mark-paid.ts";
import { getTransaction } from "../../services/transactions/get.ts";

/** The sandbox card that always pays (lib/billing/payments.ts TEST_CARDS). */
export const TEST_CARD: CardPaymentInput = {
  cardholder_name: "Sam Buyer",
  number: "4242 4242 4242 4242",
  expiry: "12/39",
  cvc: "123",
};

/** Completes transaction `id` with a captured payment, as its collection mode has it paid. */
export async function completeByPayment(id: string): Promise<void> {
  const transaction = (await getTransaction(id)).parse();
  if (transaction.collection_mode === "manual") await markPaid(id, { method: "offline" });
  else await payAtCheckout(id, TEST_CARD);
}
