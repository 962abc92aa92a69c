import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { createAdjustmentBody, listAdjustmentsQuery } from "@/lib/schemas/adjustment";
import { createAdjustment, listAdjustments } from "@/lib/services/adjustments";

export const GET = route({ permission: "adjustment.read", query: listAdjustmentsQuery }, async ({ input }) =>
  listOfJson(await listAdjustments(input.query)),
);

export const POST = route({ permission: "adjustment.write", body: createAdjustmentBody, status: 201 }, ({ input }) =>
  createAdjustment(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
