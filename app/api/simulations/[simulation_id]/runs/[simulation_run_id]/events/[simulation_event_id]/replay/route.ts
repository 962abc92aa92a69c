import { route } from "@/lib/http/route";
import { simulationEventParams, simulationEventSchema } from "@/lib/schemas/simulation";
import { replaySimulationEvent } from "@/lib/services/simulations/replay-event";

/**
 * 202 as the family answers (and as our notification replay does). The replay is delivered before
 * the answer, so its `status` and `response` already tell how it went; the family's answer may
 * still say `pending`, and a client reading either keeps working.
 */
export const POST = route(
  {
    summary: "Replay a simulation event: it is delivered again, and the answer (202) holds the outcome.",
    response: simulationEventSchema,
    permission: "notification_simulation.write",
    params: simulationEventParams,
    status: 202,
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
