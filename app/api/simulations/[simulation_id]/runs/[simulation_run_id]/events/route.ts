import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { listSimulationEventsQuery, simulationEventSchema, simulationRunParams } from "@/lib/schemas/simulation";
import { listSimulationEvents } from "@/lib/services/simulations/list-events";

export const GET = route(
  {
    summary: "List the events of a simulation run.",
    response: paginated(simulationEventSchema),
    permission: "notification_simulation.read",
    params: simulationRunParams,
    query: listSimulationEventsQuery,
  },
  async ({ input }) =>
    listOfJson(await listSimulationEvents(input.params.simulation_id, input.params.simulation_run_id, input.query)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
