import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import {
  createTransactionBody,
  listTransactionsQuery,
  transactionQuery,
  transactionResponseSchema,
} from "@/lib/schemas/transaction";
import { createTransaction } from "@/lib/services/transactions/create";
import { listTransactions } from "@/lib/services/transactions/list";

export const GET = route(
  {
    summary: "List transactions.",
    response: paginated(transactionResponseSchema),
    permission: "transaction.read",
    query: listTransactionsQuery,
  },
  async ({ input }) => listOfJson(await listTransactions(input.query)),
);

export const POST = route(
  {
    summary: "Create a transaction.",
    response: transactionResponseSchema,
    permission: "transaction.write",
    query: transactionQuery,
    body: createTransactionBody,
    status: 201,
  },
  ({ input }) => createTransaction(input.body, input.query.include),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
