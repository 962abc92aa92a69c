import { route } from "@/lib/http/route";
import { simulationEventParams, simulationEventSchema } from "@/lib/schemas/simulation";
import { getSimulationEvent } from "@/lib/services/simulations/get-event";

export const GET = route(
  {
    summary: "Get a simulation event.",
    response: simulationEventSchema,
    permission: "notification_simulation.read",
    params: simulationEventParams,
  },
  ({ input }) =>
    getSimulationEvent(input.params.simulation_id, input.params.simulation_run_id, input.params.simulation_event_id),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
