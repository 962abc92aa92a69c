import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { createBusinessBody, customerBusinessesParams, listBusinessesQuery } from "@/lib/schemas/business";
import { createBusiness, listBusinesses } from "@/lib/services/businesses";

export const GET = route(
  { permission: "business.read", params: customerBusinessesParams, query: listBusinessesQuery },
  async ({ input }) => listOfJson(await listBusinesses(input.params.customer_id, input.query)),
);

export const POST = route(
  { permission: "business.write", params: customerBusinessesParams, body: createBusinessBody, status: 201 },
  ({ input }) => createBusiness(input.params.customer_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
