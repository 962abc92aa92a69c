import { EVENT_TYPES } from "@/lib/events/catalogue";
import { route } from "@/lib/http/route";

export const GET = route({ permission: "public" }, async () => EVENT_TYPES);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
