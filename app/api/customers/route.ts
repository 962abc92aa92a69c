import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { createCustomerBody, customerSchema, listCustomersQuery } from "@/lib/schemas/customer";
import { createCustomer, listCustomers } from "@/lib/services/customers";

export const GET = route(
  {
    summary: "List customers.",
    response: paginated(customerSchema),
    permission: "customer.read",
    query: listCustomersQuery,
  },
  async ({ input }) => listOfJson(await listCustomers(input.query)),
);

export const POST = route(
  {
    summary: "Create a customer.",
    response: customerSchema,
    permission: "customer.write",
    body: createCustomerBody,
    status: 201,
  },
  ({ input }) => createCustomer(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
