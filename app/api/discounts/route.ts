import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { createDiscountBody, discountSchema, listDiscountsQuery } from "@/lib/schemas/discount";
import { createDiscount, listDiscounts } from "@/lib/services/discounts";

export const GET = route(
  {
    summary: "List discounts (`include=revision` adds each one's `revision_id`, ours).",
    response: paginated(discountSchema),
    permission: "discount.read",
    query: listDiscountsQuery,
  },
  async ({ input }) => listOfJson(await listDiscounts(input.query)),
);

export const POST = route(
  {
    summary: "Create a discount.",
    response: discountSchema,
    permission: "discount.write",
    body: createDiscountBody,
    status: 201,
  },
  ({ input }) => createDiscount(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
