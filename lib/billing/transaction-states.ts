/**
 * The transaction's status moves a caller may ask for (spec: States and transitions), in one place
 * for the API (lib/services/transactions/status.ts) and the dashboard (which offers only allowed actions).
 * `ready` is reached automatically; `paid`, `completed` and `past_due` come from payments.
 */

/** Every status a transaction can have (spec: States and transitions; `paid` as in the API family). */
export const TRANSACTION_STATUSES = ["draft", "ready", "billed", "paid", "completed", "canceled", "past_due"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Statuses whose transaction may still be edited. */
export const EDITABLE_STATUSES: ReadonlySet<string> = new Set(["draft", "ready"]);

/** Statuses a transaction may be canceled from. */
export const CANCELABLE_STATUSES: ReadonlySet<string> = new Set(["draft", "ready", "billed"]);

/** Only a ready transaction is billed (its invoice issued). */
export function canBill(status: string): boolean {
  return status === "ready";
}

export function canCancel(status: string): boolean {
  return CANCELABLE_STATUSES.has(status);
}

/** Whether a caller may move a transaction from `from` to `to`. */
export function isAllowedMove(from: string, to: string): boolean {
  return (to === "billed" && canBill(from)) || (to === "canceled" && canCancel(from));
}

// ---------------------------------------------------------------------------------------------
// Moves that payments make (lib/services/payments/), never a caller's PATCH; every status move
// the services write, with its verb, is in transitions.ts.
//
// - ready → completed: an automatically-collected transaction's payment is captured at checkout.
// - billed or past_due → completed: a manual invoice is paid, at its checkout (when
//   billing_details.enable_checkout) or marked paid by the merchant.
// - billed → past_due: a manual invoice's due date (billed_at + payment terms) passed unpaid.
// The API family's `paid` status (payment captured, processing not done) is passed through at
// once here: the sandbox processes as it captures. A past_due transaction cannot be canceled
// through PATCH (the API family cancels only draft, ready and billed ones): it is paid, or stays
// past due.

/** What decides whether a transaction can be paid. */
export interface Payable {
  status: string;
  collection_mode: string;
  billing_details: { enable_checkout?: boolean } | null;
}

/** Whether the hosted checkout serves the transaction at all (it may be paid or unpayable there). */
export function checkoutEnabled(t: Omit<Payable, "status">): boolean {
  return t.collection_mode === "automatic" || t.billing_details?.enable_checkout === true;
}

/** Statuses a manual invoice can be paid in. */
export const UNPAID_INVOICE_STATUSES: ReadonlySet<string> = new Set(["billed", "past_due"]);

/** Whether the hosted checkout can take a payment for the transaction now. */
export function canPayAtCheckout(t: Payable): boolean {
  // An automatically-collected past_due transaction is a subscription's failed charge: the customer
  // pays it at checkout with another card (the update-payment-method checkout, decision: payment-method-transaction).
  if (t.collection_mode === "automatic") return t.status === "ready" || t.status === "past_due";
  return checkoutEnabled(t) && UNPAID_INVOICE_STATUSES.has(t.status);
}

/** Whether the merchant can record a manual invoice as paid (offline or by wire transfer). */
export function canMarkPaid(t: Pick<Payable, "status" | "collection_mode">): boolean {
  return t.collection_mode === "manual" && UNPAID_INVOICE_STATUSES.has(t.status);
}
