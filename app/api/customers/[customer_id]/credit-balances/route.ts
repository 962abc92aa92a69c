import { z } from "zod";
import { route } from "@/lib/http/route";
import { entityId } from "@/lib/schemas/common";
import { currencyCode } from "@/lib/schemas/price";
import { listCreditBalances } from "@/lib/services/credit-balances";

/** Not paginated: one balance per currency (reference §13). */
export const GET = route(
  {
    permission: "customer.read",
    params: z.object({ customer_id: entityId("ctm") }),
    query: z.object({ currency_code: currencyCode.optional() }),
  },
  ({ input }) => listCreditBalances(input.params.customer_id, input.query.currency_code),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
