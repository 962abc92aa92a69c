import { SIMULATION } from "../../db/entities/simulation.ts";
import { type JsonPage, listJson, Params } from "../../db/sql.ts";
import type { ListSimulationsQuery } from "../../schemas/simulation.ts";

/** Simulations of every status unless `status` asks for some (the API family filters none out). */
export function listSimulations(options: ListSimulationsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (options.status) filters.push(params.oneOf("t.status", options.status));
  if (options.id) filters.push(params.oneOf("t.id", options.id));
  if (options.notification_setting_id) {
    filters.push(params.oneOf("t.notification_setting_id", options.notification_setting_id));
  }
  return listJson(SIMULATION, {
    filters,
    params,
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
}
