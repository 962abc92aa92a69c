import { route } from "@/lib/http/route";
import { customerParams, customerSchema, updateCustomerBody } from "@/lib/schemas/customer";
import { getCustomer, updateCustomer } from "@/lib/services/customers";

export const GET = route(
  { summary: "Get a customer.", response: customerSchema, permission: "customer.read", params: customerParams },
  ({ input }) => getCustomer(input.params.customer_id),
);

export const PATCH = route(
  {
    summary: "Update a customer.",
    response: customerSchema,
    permission: "customer.write",
    params: customerParams,
    body: updateCustomerBody,
  },
  ({ input }) => updateCustomer(input.params.customer_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
