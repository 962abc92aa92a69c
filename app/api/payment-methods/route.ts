import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { listPaymentMethodsQuery, paymentMethodSchema } from "@/lib/schemas/payment-method";
import { listPaymentMethods } from "@/lib/services/payment-methods";

/** Ours: the saved methods of every customer (the family lists them per customer), found by `last4`. */
export const GET = route(
  {
    summary: "List the saved payment methods of every customer, e.g. by a card's last 4 digits (ours).",
    response: paginated(paymentMethodSchema),
    permission: "payment_method.read",
    query: listPaymentMethodsQuery,
  },
  async ({ input }) => listOfJson(await listPaymentMethods(null, input.query)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
