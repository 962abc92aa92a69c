import { route } from "@/lib/http/route";
import {
  transactionParams,
  transactionQuery,
  transactionResponseSchema,
  updateTransactionBody,
} from "@/lib/schemas/transaction";
import { getTransaction } from "@/lib/services/transactions/get";
import { updateTransaction } from "@/lib/services/transactions/update";

export const GET = route(
  {
    summary: "Get a transaction.",
    response: transactionResponseSchema,
    permission: "transaction.read",
    params: transactionParams,
    query: transactionQuery,
  },
  ({ input }) => getTransaction(input.params.transaction_id, input.query.include),
);

export const PATCH = route(
  {
    summary: "Update a transaction.",
    response: transactionResponseSchema,
    permission: "transaction.write",
    params: transactionParams,
    query: transactionQuery,
    body: updateTransactionBody,
  },
  ({ input }) => updateTransaction(input.params.transaction_id, input.body, input.query.include),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
