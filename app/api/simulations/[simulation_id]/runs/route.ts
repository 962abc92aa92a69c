import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { listSimulationRunsQuery, simulationParams } from "@/lib/schemas/simulation";
import { createSimulationRun } from "@/lib/services/simulations/create-run";
import { listSimulationRuns } from "@/lib/services/simulations/list-runs";

export const GET = route(
  { permission: "notification_simulation.read", params: simulationParams, query: listSimulationRunsQuery },
  async ({ input }) => listOfJson(await listSimulationRuns(input.params.simulation_id, input.query)),
);

export const POST = route(
  { permission: "notification_simulation.write", params: simulationParams, status: 201 },
  ({ input, auth }) => createSimulationRun(input.params.simulation_id, auth.permissions),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
