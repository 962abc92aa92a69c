import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { eventSchema, listEventsQuery } from "@/lib/schemas/event";
import { listEvents } from "@/lib/services/events";

export const GET = route(
  {
    summary: "List events, newest first.",
    response: paginated(eventSchema),
    permission: "event.read",
    query: listEventsQuery,
  },
  async ({ input, auth }) => listOfJson(await listEvents(input.query, auth.permissions)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
