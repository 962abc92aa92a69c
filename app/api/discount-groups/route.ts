import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { createDiscountGroupBody, listDiscountGroupsQuery } from "@/lib/schemas/discount-group";
import { createDiscountGroup, listDiscountGroups } from "@/lib/services/discount-groups";

export const GET = route({ permission: "discount_group.read", query: listDiscountGroupsQuery }, async ({ input }) =>
  listOfJson(await listDiscountGroups(input.query)),
);

export const POST = route(
  { permission: "discount_group.write", body: createDiscountGroupBody, status: 201 },
  ({ input }) => createDiscountGroup(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
