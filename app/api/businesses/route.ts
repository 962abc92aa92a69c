import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { businessSchema, listBusinessesQuery } from "@/lib/schemas/business";
import { listBusinesses } from "@/lib/services/businesses";

/** Ours: the businesses of every customer (the family lists them per customer), for the dashboard's search. */
export const GET = route(
  {
    summary: "List the businesses of every customer, searchable by name (ours).",
    response: paginated(businessSchema),
    permission: "business.read",
    query: listBusinessesQuery,
  },
  async ({ input }) => listOfJson(await listBusinesses(null, input.query)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
