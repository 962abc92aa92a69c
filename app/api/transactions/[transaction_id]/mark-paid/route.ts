/** Our extension: record that a billed or past-due manual invoice was paid (offline or by wire transfer). */
import { route } from "@/lib/http/route";
import { markPaidBody } from "@/lib/schemas/payment";
import { transactionParams, transactionQuery, transactionResponseSchema } from "@/lib/schemas/transaction";
import { markPaid } from "@/lib/services/payments/mark-paid";

export const POST = route(
  {
    summary: "Mark a billed or past-due manual invoice as paid.",
    response: transactionResponseSchema,
    permission: "transaction.write",
    params: transactionParams,
    query: transactionQuery,
    body: markPaidBody,
    optionalBody: true,
  },
  ({ input }) => markPaid(input.params.transaction_id, input.body, input.query.include),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
