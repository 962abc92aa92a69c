import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { addressSchema, createAddressBody, customerAddressesParams, listAddressesQuery } from "@/lib/schemas/address";
import { createAddress, listAddresses } from "@/lib/services/addresses";

export const GET = route(
  {
    summary: "List a customer's addresses.",
    response: paginated(addressSchema),
    permission: "address.read",
    params: customerAddressesParams,
    query: listAddressesQuery,
  },
  async ({ input }) => listOfJson(await listAddresses(input.params.customer_id, input.query)),
);

export const POST = route(
  {
    summary: "Create an address for a customer.",
    response: addressSchema,
    permission: "address.write",
    params: customerAddressesParams,
    body: createAddressBody,
    status: 201,
  },
  ({ input }) => createAddress(input.params.customer_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
