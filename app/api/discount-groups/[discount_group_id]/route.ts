import { route } from "@/lib/http/route";
import { discountGroupParams, discountGroupSchema, updateDiscountGroupBody } from "@/lib/schemas/discount-group";
import { getDiscountGroup, updateDiscountGroup } from "@/lib/services/discount-groups";

export const GET = route(
  {
    summary: "Get a discount group.",
    response: discountGroupSchema,
    permission: "discount_group.read",
    params: discountGroupParams,
  },
  ({ input }) => getDiscountGroup(input.params.discount_group_id),
);

export const PATCH = route(
  {
    summary: "Update a discount group.",
    response: discountGroupSchema,
    permission: "discount_group.write",
    params: discountGroupParams,
    body: updateDiscountGroupBody,
  },
  ({ input }) => updateDiscountGroup(input.params.discount_group_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
