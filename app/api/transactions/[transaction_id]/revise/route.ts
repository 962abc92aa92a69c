import { route } from "@/lib/http/route";
import { reviseTransactionBody } from "@/lib/schemas/adjustment";
import { transactionParams, transactionQuery, transactionResponseSchema } from "@/lib/schemas/transaction";
import { reviseTransaction } from "@/lib/services/transactions/revise";

export const POST = route(
  {
    summary: "Revise the customer details of a billed or completed transaction.",
    response: transactionResponseSchema,
    permission: "transaction.write",
    params: transactionParams,
    query: transactionQuery,
    body: reviseTransactionBody,
  },
  ({ input }) => reviseTransaction(input.params.transaction_id, input.body, input.query.include),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
