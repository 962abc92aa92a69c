import { route } from "@/lib/http/route";
import { simulationEventParams, simulationEventSchema } from "@/lib/schemas/simulation";
import { replaySimulationEvent } from "@/lib/services/simulations/replay-event";

export const POST = route(
  {
    summary: "Replay a simulation event.",
    response: simulationEventSchema,
    permission: "notification_simulation.write",
    params: simulationEventParams,
  },
  ({ input }) =>
    replaySimulationEvent(input.params.simulation_id, input.params.simulation_run_id, input.params.simulation_event_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
