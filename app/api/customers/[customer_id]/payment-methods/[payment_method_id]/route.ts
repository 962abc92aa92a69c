import { route } from "@/lib/http/route";
import { paymentMethodParams, paymentMethodSchema } from "@/lib/schemas/payment-method";
import { deletePaymentMethod, getPaymentMethod } from "@/lib/services/payment-methods";

export const GET = route(
  {
    summary: "Get a saved payment method of a customer.",
    response: paymentMethodSchema,
    permission: "payment_method.read",
    params: paymentMethodParams,
  },
  ({ input }) => getPaymentMethod(input.params.customer_id, input.params.payment_method_id),
);

/** 204: deleted for good, as in the API family. */
export const DELETE = route(
  {
    summary: "Delete a saved payment method (204, no body).",
    response: "no_content",
    permission: "payment_method.write",
    params: paymentMethodParams,
  },
  async ({ input }) => {
    await deletePaymentMethod(input.params.customer_id, input.params.payment_method_id);
    return new Response(null, { status: 204 });
  },
);

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as PATCH } from "@/lib/http/route";
