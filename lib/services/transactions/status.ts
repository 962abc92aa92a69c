/**
 * The status moves a PATCH may ask for, and the refusals of the others (spec: Transaction, States
 * and transitions). The allowed moves are lib/billing/transaction-states.ts's.
 */
import { isAllowedMove } from "../../billing/transaction-states.ts";
import { ApiError } from "../../errors.ts";
import type { TransactionStatus } from "../../schemas/transaction.ts";

export function immutable(id: string, status: string): ApiError {
  const hint =
    status === "billed"
      ? ': a billed transaction is a legal record and can only be canceled (send {"status": "canceled"} alone); record refunds and credits with adjustments'
      : status === "completed"
        ? ": record refunds and credits with adjustments"
        : "";
  return new ApiError(
    "transaction_immutable",
    `Cannot update immutable transaction: ${id} is ${status}, and only draft and ready transactions can be changed${hint}.`,
  );
}

/** The move to `to` a PATCH asks for, refused unless the spec allows it (from `from`). */
export function checkMove(from: TransactionStatus, to: TransactionStatus): void {
  if (isAllowedMove(from, to)) return;
  let why: string;
  if (to === "billed") {
    why =
      from === "draft"
        ? "only a ready transaction can be billed, and a draft becomes ready once it has items, a customer and an address"
        : "only a ready transaction can be billed";
  } else if (to === "canceled") {
    why = "only draft, ready and billed transactions can be canceled";
  } else {
    why = "only billed and canceled can be sent as status; the other statuses are set by the service";
  }
  throw new ApiError(
    "transaction_invalid_status_change",
    `Invalid attempt to change status from '${from}' to '${to}': ${why}.`,
  );
}
