import { route } from "@/lib/http/route";
import { businessParams, businessSchema, updateBusinessBody } from "@/lib/schemas/business";
import { getBusiness, updateBusiness } from "@/lib/services/businesses";

export const GET = route(
  {
    summary: "Get a business of a customer.",
    response: businessSchema,
    permission: "business.read",
    params: businessParams,
  },
  ({ input }) => getBusiness(input.params.customer_id, input.params.business_id),
);

export const PATCH = route(
  {
    summary: "Update a business of a customer.",
    response: businessSchema,
    permission: "business.write",
    params: businessParams,
    body: updateBusinessBody,
  },
  ({ input }) => updateBusiness(input.params.customer_id, input.params.business_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
