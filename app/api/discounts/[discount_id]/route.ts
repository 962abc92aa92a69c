import { route } from "@/lib/http/route";
import { discountParams, discountSchema, getDiscountQuery, updateDiscountBody } from "@/lib/schemas/discount";
import { getDiscount, updateDiscount } from "@/lib/services/discounts";

// GET accepts the `dsc_…@dscrev_…` form too and returns the discount as it is now: its
// `revision_id` tells the caller whether the revision it named is still the current one.
export const GET = route(
  {
    summary: "Get a discount (also by `dsc_…@dscrev_…`).",
    response: discountSchema,
    permission: "discount.read",
    params: discountParams,
    query: getDiscountQuery,
  },
  ({ input }) => getDiscount(input.params.discount_id, input.query.include),
);

export const PATCH = route(
  {
    summary: "Update a discount.",
    response: discountSchema,
    permission: "discount.write",
    params: discountParams,
    body: updateDiscountBody,
  },
  ({ input }) => updateDiscount(input.params.discount_id, input.params.revision_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
