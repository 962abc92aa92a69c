import { z } from "zod";
import { route } from "@/lib/http/route";
import { customerParams } from "@/lib/schemas/customer";
import { creditBalanceSchema, creditBalancesQuery } from "@/lib/schemas/payment-method";
import { listCreditBalances } from "@/lib/services/credit-balances";

/** Not paginated: one balance per currency, as in the API family. */
export const GET = route(
  {
    summary: "List a customer's credit balances, one per currency (not paginated).",
    response: z.array(creditBalanceSchema),
    permission: "customer.read",
    params: customerParams,
    query: creditBalancesQuery,
  },
  ({ input }) => listCreditBalances(input.params.customer_id, input.query.currency_code),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
