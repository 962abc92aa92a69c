import { route } from "@/lib/http/route";
import { listOf } from "@/lib/http/pagination";
import { createCustomerBody, listCustomersQuery } from "@/lib/schemas/customer";
import { createCustomer, listCustomers, serializeCustomer } from "@/lib/services/customers";

export const GET = route({ permission: "customer.read", query: listCustomersQuery }, async ({ input }) =>
  listOf(await listCustomers(input.query), serializeCustomer),
);

export const POST = route({ permission: "customer.write", body: createCustomerBody, status: 201 }, ({ input }) =>
  createCustomer(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
