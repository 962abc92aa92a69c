import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { createPriceBody, listPricesQuery, priceResponseSchema, priceSchema } from "@/lib/schemas/price";
import { createPrice, listPrices } from "@/lib/services/prices";

export const GET = route(
  {
    summary: "List prices.",
    response: paginated(priceResponseSchema),
    permission: "price.read",
    query: listPricesQuery,
  },
  async ({ input }) => listOfJson(await listPrices(input.query)),
);

export const POST = route(
  { summary: "Create a price.", response: priceSchema, permission: "price.write", body: createPriceBody, status: 201 },
  ({ input }) => createPrice(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
