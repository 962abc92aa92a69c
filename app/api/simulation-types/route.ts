import { z } from "zod";
import { route } from "@/lib/http/route";
import { simulationTypeSchema } from "@/lib/schemas/simulation";
import { simulationTypes } from "@/lib/simulator/simulation-types";

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
