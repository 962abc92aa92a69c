/**
 * The Stripe checkout's intent: the client secret of the PaymentIntent (or, for a transaction that
 * owes nothing but saves a card, SetupIntent) the hosted checkout page confirms with Stripe.js, with
 * the publishable key and Stripe.js's address. Public, as GET /checkout/{transaction_id}: the
 * transaction ID in the checkout link is the capability. How: lib/services/payments/stripe-checkout.ts.
 */
import { clientAddress } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { checkoutIntentSchema } from "@/lib/schemas/payment";
import { transactionParams } from "@/lib/schemas/transaction";
import { startStripeCheckout } from "@/lib/services/payments/stripe-checkout";

export const POST = route(
  {
    summary: "Start (or resume) the Stripe payment of a transaction at the hosted checkout.",
    response: checkoutIntentSchema,
    permission: "public",
    params: transactionParams,
  },
  ({ input, request }) => startStripeCheckout(input.params.transaction_id, clientAddress(request.headers)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
