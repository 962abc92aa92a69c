import { route } from "@/lib/http/route";
import { getPriceQuery, priceParams, priceResponseSchema, priceSchema, updatePriceBody } from "@/lib/schemas/price";
import { getPrice, updatePrice } from "@/lib/services/prices";

export const GET = route(
  {
    summary: "Get a price.",
    response: priceResponseSchema,
    permission: "price.read",
    params: priceParams,
    query: getPriceQuery,
  },
  ({ input }) => getPrice(input.params.price_id, input.query),
);

export const PATCH = route(
  {
    summary: "Update a price.",
    response: priceSchema,
    permission: "price.write",
    params: priceParams,
    body: updatePriceBody,
  },
  ({ input }) => updatePrice(input.params.price_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
