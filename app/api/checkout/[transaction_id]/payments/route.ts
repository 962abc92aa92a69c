/**
 * A card payment at the hosted checkout (sandbox test cards). Public, as GET /checkout/{transaction_id};
 * declines are limited per client address (lib/services/payments/declines.ts DECLINE_LIMITS).
 */
import { clientAddress } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { cardPaymentBody, checkoutPaymentSchema } from "@/lib/schemas/payment";
import { transactionParams } from "@/lib/schemas/transaction";
import { payWithTestCard } from "@/lib/services/payments/checkout";

export const POST = route(
  {
    summary: "Pay a transaction at the hosted checkout (sandbox test cards).",
    response: checkoutPaymentSchema,
    permission: "public",
    params: transactionParams,
    body: cardPaymentBody,
    status: 201,
  },
  ({ input, request }) => payWithTestCard(input.params.transaction_id, input.body, clientAddress(request.headers)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
