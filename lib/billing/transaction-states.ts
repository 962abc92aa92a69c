/**
 * The transaction's status moves a caller may ask for (spec: States and transitions), in one place
 * for the API (lib/services/transactions.ts) and the dashboard (which offers only allowed actions).
 * `ready` is reached automatically; `paid`, `completed` and `past_due` come from payments.
 */

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
