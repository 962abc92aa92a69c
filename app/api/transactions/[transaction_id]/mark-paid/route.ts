/** Our extension: record that a billed or past-due manual invoice was paid (offline or by wire transfer). */
import { route } from "@/lib/http/route";
import { markPaidBody } from "@/lib/schemas/payment";
import { transactionParams, transactionQuery } from "@/lib/schemas/transaction";
import { markPaid } from "@/lib/services/payments";
import { getTransaction } from "@/lib/services/transactions";

export const POST = route(
  {
    permission: "transaction.write",
    params: transactionParams,
    query: transactionQuery,
    body: markPaidBody,
    optionalBody: true,
  },
  async ({ input }) => {
    const paid = await markPaid(input.params.transaction_id, input.body);
    return input.query.include?.length ? getTransaction(input.params.transaction_id, input.query.include) : paid;
  },
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
