/** GET /subscriptions/{id}/update-payment-method-transaction (reference §3, §9): needs transaction.write. */
import { route } from "@/lib/http/route";
import { subscriptionParams } from "@/lib/schemas/subscription";
import { transactionSchema } from "@/lib/schemas/transaction";
import { paymentMethodTransaction } from "@/lib/services/subscriptions/payment-method-transaction";

export const GET = route(
  {
    summary: "Get a transaction to update a subscription's payment method.",
    response: transactionSchema,
    permission: "transaction.write",
    params: subscriptionParams,
  },
  ({ input }) => paymentMethodTransaction(input.params.subscription_id),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
