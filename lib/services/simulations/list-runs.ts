import { simulationRunEntity } from "../../db/entities/simulation.ts";
import { type JsonPage, listJson, Params, query } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import type { ListSimulationRunsQuery } from "../../schemas/simulation.ts";

export async function listSimulationRuns(simulationId: string, options: ListSimulationRunsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters = [`t.simulation_id = ${params.add(simulationId)}`];
  if (options.id) filters.push(params.oneOf("t.id", options.id));
  const page = await listJson(simulationRunEntity(options.include), {
    filters,
    params,
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
  // A page with runs proves the simulation exists; an empty one may be of an unknown simulation.
  if (page.lastId === null) {
    const [found] = await query("SELECT 1 FROM simulations WHERE id = $1", [simulationId]);
    if (!found) throw notFound(simulationId);
  }
  return page;
}
