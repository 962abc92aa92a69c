import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { adjustmentSchema, createAdjustmentBody, listAdjustmentsQuery } from "@/lib/schemas/adjustment";
import { createAdjustment } from "@/lib/services/adjustments/create";
import { listAdjustments } from "@/lib/services/adjustments/list";

export const GET = route(
  {
    summary: "List adjustments.",
    response: paginated(adjustmentSchema),
    permission: "adjustment.read",
    query: listAdjustmentsQuery,
  },
  async ({ input }) => listOfJson(await listAdjustments(input.query)),
);

export const POST = route(
  {
    summary: "Create an adjustment (a refund or credit) for a transaction.",
    response: adjustmentSchema,
    permission: "adjustment.write",
    body: createAdjustmentBody,
    status: 201,
  },
  ({ input }) => createAdjustment(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
