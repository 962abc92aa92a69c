import { simulationRunEntity } from "../../db/entities/simulation.ts";
import { getJson, type RawJson } from "../../db/sql.ts";
import type { GetSimulationRunQuery, SimulationRun } from "../../schemas/simulation.ts";
import { notFoundUnder } from "./nesting.ts";

export async function getSimulationRun(
  simulationId: string,
  runId: string,
  options: GetSimulationRunQuery = {},
): Promise<RawJson<SimulationRun>> {
  const run = await getJson(simulationRunEntity(options.include), "t.id = $1 AND t.simulation_id = $2", [
    runId,
    simulationId,
  ]);
  return run ?? notFoundUnder(simulationId, runId);
}
