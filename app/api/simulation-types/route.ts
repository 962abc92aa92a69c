import { z } from "zod";
import { simulationTypes } from "@/lib/events/simulation-types";
import { route } from "@/lib/http/route";
import { simulationTypeSchema } from "@/lib/schemas/simulation";

// The whole catalogue, not paginated (as in the API family).
export const GET = route(
  {
    summary: "List the simulation types (not paginated).",
    response: z.array(simulationTypeSchema),
    permission: "notification_simulation.read",
  },
  async () => simulationTypes(),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
