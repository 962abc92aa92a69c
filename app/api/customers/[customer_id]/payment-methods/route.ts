import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { customerPaymentMethodsParams, listPaymentMethodsQuery } from "@/lib/schemas/payment-method";
import { listPaymentMethods } from "@/lib/services/payment-methods";

export const GET = route(
  { permission: "payment_method.read", params: customerPaymentMethodsParams, query: listPaymentMethodsQuery },
  async ({ input }) => listOfJson(await listPaymentMethods(input.params.customer_id, input.query)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
