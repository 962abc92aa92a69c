import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { createSimulationBody, listSimulationsQuery, simulationSchema } from "@/lib/schemas/simulation";
import { createSimulation } from "@/lib/services/simulations/create";
import { listSimulations } from "@/lib/services/simulations/list";

export const GET = route(
  {
    summary: "List simulations.",
    response: paginated(simulationSchema),
    permission: "notification_simulation.read",
    query: listSimulationsQuery,
  },
  async ({ input }) => listOfJson(await listSimulations(input.query)),
);

export const POST = route(
  {
    summary: "Create a simulation.",
    response: simulationSchema,
    permission: "notification_simulation.write",
    body: createSimulationBody,
    status: 201,
  },
  ({ input, auth }) => createSimulation(input.body, auth.permissions),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
