/**
 * After Stripe.js confirmed the checkout's PaymentIntent (or SetupIntent): its outcome, read from
 * Stripe (never taken from the browser) and settled exactly once, whoever comes first of this call
 * and Stripe's webhook. Public, as GET /checkout/{transaction_id}; failed confirmations count against
 * the checkout's decline limits. How: lib/services/payments/stripe-checkout.ts.
 */
import { clientAddress } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { checkoutConfirmationSchema, checkoutConfirmBody } from "@/lib/schemas/payment";
import { transactionParams } from "@/lib/schemas/transaction";
import { confirmStripeCheckout } from "@/lib/services/payments/stripe-checkout";

export const POST = route(
  {
    summary: "Settle the hosted checkout's Stripe payment from what Stripe says of it.",
    response: checkoutConfirmationSchema,
    permission: "public",
    params: transactionParams,
    body: checkoutConfirmBody,
  },
  ({ input, request }) =>
    confirmStripeCheckout(input.params.transaction_id, input.body.payment_intent, clientAddress(request.headers)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
