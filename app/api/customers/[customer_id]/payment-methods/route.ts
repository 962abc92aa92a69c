import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { customerParams } from "@/lib/schemas/customer";
import { listPaymentMethodsQuery, paymentMethodSchema } from "@/lib/schemas/payment-method";
import { listPaymentMethods } from "@/lib/services/payment-methods";

export const GET = route(
  {
    summary: "List a customer's saved payment methods.",
    response: paginated(paymentMethodSchema),
    permission: "payment_method.read",
    params: customerParams,
    query: listPaymentMethodsQuery,
  },
  async ({ input }) => listOfJson(await listPaymentMethods(input.params.customer_id, input.query)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
