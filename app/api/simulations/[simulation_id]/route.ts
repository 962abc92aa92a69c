import { route } from "@/lib/http/route";
import { simulationParams, simulationSchema, updateSimulationBody } from "@/lib/schemas/simulation";
import { getSimulation } from "@/lib/services/simulations/get";
import { updateSimulation } from "@/lib/services/simulations/update";

export const GET = route(
  {
    summary: "Get a simulation.",
    response: simulationSchema,
    permission: "notification_simulation.read",
    params: simulationParams,
  },
  ({ input }) => getSimulation(input.params.simulation_id),
);

export const PATCH = route(
  {
    summary: "Update a simulation.",
    response: simulationSchema,
    permission: "notification_simulation.write",
    params: simulationParams,
    body: updateSimulationBody,
  },
  ({ input, auth }) => updateSimulation(input.params.simulation_id, input.body, auth.permissions),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
