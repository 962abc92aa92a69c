/** A discount code at the hosted checkout (public, as the checkout): lib/services/payments/checkout-discount.ts. */
import { route } from "@/lib/http/route";
import { checkoutDiscountBody, checkoutSchema } from "@/lib/schemas/payment";
import { transactionParams } from "@/lib/schemas/transaction";
import { applyCheckoutDiscount, removeCheckoutDiscount } from "@/lib/services/payments/checkout-discount";

export const POST = route(
  {
    summary: "Apply a discount code at the hosted checkout (public).",
    response: checkoutSchema,
    permission: "public",
    params: transactionParams,
    body: checkoutDiscountBody,
  },
  ({ input }) => applyCheckoutDiscount(input.params.transaction_id, input.body.code),
);

export const DELETE = route(
  {
    summary: "Remove the discount code applied at the hosted checkout (public).",
    response: checkoutSchema,
    permission: "public",
    params: transactionParams,
  },
  ({ input }) => removeCheckoutDiscount(input.params.transaction_id),
);

export { methodNotAllowed as GET, methodNotAllowed as PUT, methodNotAllowed as PATCH } from "@/lib/http/route";
