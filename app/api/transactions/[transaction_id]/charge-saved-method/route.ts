/** Ours: charge a ready, automatically-collected transaction to a method the customer saved (lib/services/transactions/charge-saved-method.ts). */
import { route } from "@/lib/http/route";
import { chargeSavedMethodBody } from "@/lib/schemas/payment";
import { transactionParams, transactionResponseSchema } from "@/lib/schemas/transaction";
import { chargeSavedMethod } from "@/lib/services/transactions/charge-saved-method";

export const POST = route(
  {
    summary: "Charge a ready, automatically-collected transaction to a saved payment method (ours).",
    response: transactionResponseSchema,
    permission: "transaction.write",
    params: transactionParams,
    body: chargeSavedMethodBody,
  },
  ({ input }) => chargeSavedMethod(input.params.transaction_id, input.body.payment_method_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
