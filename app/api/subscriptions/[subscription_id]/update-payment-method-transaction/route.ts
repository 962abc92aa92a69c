/** GET /subscriptions/{id}/update-payment-method-transaction (decision: payment-method-transaction): needs transaction.write. */
import { route } from "@/lib/http/route";
import { subscriptionParams } from "@/lib/schemas/subscription";
import { transactionResponseSchema } from "@/lib/schemas/transaction";
import { paymentMethodTransaction } from "@/lib/services/subscriptions/payment-method-transaction";

export const GET = route(
  {
    summary:
      "Get a transaction to update a subscription's payment method, with its customer, address, business, discount and adjustments as the key may read them.",
    response: transactionResponseSchema,
    permission: "transaction.write",
    params: subscriptionParams,
  },
  ({ input, auth }) => paymentMethodTransaction(input.params.subscription_id, auth.permissions),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
