import { z } from "zod";
import { EVENT_TYPES } from "@/lib/events/catalogue";
import { route } from "@/lib/http/route";
import { eventTypeSchema } from "@/lib/schemas/event";

export const GET = route(
  { summary: "List the event types (not paginated).", response: z.array(eventTypeSchema), permission: "public" },
  async () => EVENT_TYPES,
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
