import { route } from "@/lib/http/route";
import { getSimulationRunQuery, simulationRunParams, simulationRunSchema } from "@/lib/schemas/simulation";
import { getSimulationRun } from "@/lib/services/simulations/get-run";

export const GET = route(
  {
    summary: "Get a simulation run.",
    response: simulationRunSchema,
    permission: "notification_simulation.read",
    params: simulationRunParams,
    query: getSimulationRunQuery,
  },
  ({ input }) => getSimulationRun(input.params.simulation_id, input.params.simulation_run_id, input.query),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
