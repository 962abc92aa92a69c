/** "Manage subscription" after paying at the hosted checkout (public): lib/services/payments/checkout-portal.ts. */
import { route } from "@/lib/http/route";
import { checkoutPortalSchema } from "@/lib/schemas/payment";
import { transactionParams } from "@/lib/schemas/transaction";
import { checkoutPortalLink } from "@/lib/services/payments/checkout-portal";

export const POST = route(
  {
    summary: "A customer-portal link for the subscription a checkout payment started (public).",
    response: checkoutPortalSchema,
    permission: "public",
    params: transactionParams,
    status: 201,
  },
  ({ input }) => checkoutPortalLink(input.params.transaction_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
