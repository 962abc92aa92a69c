import { SIMULATION_EVENT } from "../../db/entities/simulation.ts";
import { type JsonPage, listJson, Params, query } from "../../db/sql.ts";
import type { ListSimulationEventsQuery } from "../../schemas/simulation.ts";
import { notFoundUnder } from "./nesting.ts";

export async function listSimulationEvents(
  simulationId: string,
  runId: string,
  options: ListSimulationEventsQuery,
): Promise<JsonPage> {
  const params = new Params();
  const filters = [
    `t.simulation_run_id = ${params.add(runId)}`,
    `EXISTS (SELECT 1 FROM simulation_runs r WHERE r.id = t.simulation_run_id AND r.simulation_id = ${params.add(simulationId)})`,
  ];
  if (options.id) filters.push(params.oneOf("t.id", options.id));
  const page = await listJson(SIMULATION_EVENT, {
    filters,
    params,
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
  if (page.lastId === null) {
    const [found] = await query("SELECT 1 FROM simulation_runs WHERE id = $1 AND simulation_id = $2", [
      runId,
      simulationId,
    ]);
    if (!found) return notFoundUnder(simulationId, runId);
  }
  return page;
}
