import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { createDiscountGroupBody, discountGroupSchema, listDiscountGroupsQuery } from "@/lib/schemas/discount-group";
import { createDiscountGroup, listDiscountGroups } from "@/lib/services/discount-groups";

export const GET = route(
  {
    summary: "List discount groups.",
    response: paginated(discountGroupSchema),
    permission: "discount_group.read",
    query: listDiscountGroupsQuery,
  },
  async ({ input }) => listOfJson(await listDiscountGroups(input.query)),
);

export const POST = route(
  {
    summary: "Create a discount group.",
    response: discountGroupSchema,
    permission: "discount_group.write",
    body: createDiscountGroupBody,
    status: 201,
  },
  ({ input }) => createDiscountGroup(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
