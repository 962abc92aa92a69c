/**
 * The hosted checkout's view of a transaction. Public: no API key, as the API family's hosted
 * checkout; the transaction ID in the checkout link is the capability.
 */
import { route } from "@/lib/http/route";
import { checkoutSchema } from "@/lib/schemas/payment";
import { transactionParams } from "@/lib/schemas/transaction";
import { getCheckout } from "@/lib/services/payments/checkout";

export const GET = route(
  {
    summary: "Get the hosted checkout's view of a transaction.",
    response: checkoutSchema,
    permission: "public",
    params: transactionParams,
  },
  ({ input }) => getCheckout(input.params.transaction_id),
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
