import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { listSimulationRunsQuery, simulationParams, simulationRunSchema } from "@/lib/schemas/simulation";
import { createSimulationRun } from "@/lib/services/simulations/create-run";
import { listSimulationRuns } from "@/lib/services/simulations/list-runs";

export const GET = route(
  {
    summary: "List the runs of a simulation.",
    response: paginated(simulationRunSchema),
    permission: "notification_simulation.read",
    params: simulationParams,
    query: listSimulationRunsQuery,
  },
  async ({ input }) => listOfJson(await listSimulationRuns(input.params.simulation_id, input.query)),
);

export const POST = route(
  {
    summary: "Run a simulation: its events are sent to the destination.",
    response: simulationRunSchema,
    permission: "notification_simulation.write",
    params: simulationParams,
    status: 201,
  },
  ({ input, auth }) => createSimulationRun(input.params.simulation_id, auth.permissions),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
