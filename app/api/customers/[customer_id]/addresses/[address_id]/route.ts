import { route } from "@/lib/http/route";
import { addressParams, addressSchema, updateAddressBody } from "@/lib/schemas/address";
import { getAddress, updateAddress } from "@/lib/services/addresses";

export const GET = route(
  {
    summary: "Get an address of a customer.",
    response: addressSchema,
    permission: "address.read",
    params: addressParams,
  },
  ({ input }) => getAddress(input.params.customer_id, input.params.address_id),
);

export const PATCH = route(
  {
    summary: "Update an address of a customer.",
    response: addressSchema,
    permission: "address.write",
    params: addressParams,
    body: updateAddressBody,
  },
  ({ input }) => updateAddress(input.params.customer_id, input.params.address_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
