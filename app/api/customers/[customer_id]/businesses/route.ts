import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import {
  businessSchema,
  createBusinessBody,
  customerBusinessesParams,
  listBusinessesQuery,
} from "@/lib/schemas/business";
import { createBusiness, listBusinesses } from "@/lib/services/businesses";

export const GET = route(
  {
    summary: "List a customer's businesses.",
    response: paginated(businessSchema),
    permission: "business.read",
    params: customerBusinessesParams,
    query: listBusinessesQuery,
  },
  async ({ input }) => listOfJson(await listBusinesses(input.params.customer_id, input.query)),
);

export const POST = route(
  {
    summary: "Create a business for a customer.",
    response: businessSchema,
    permission: "business.write",
    params: customerBusinessesParams,
    body: createBusinessBody,
    status: 201,
  },
  ({ input }) => createBusiness(input.params.customer_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
