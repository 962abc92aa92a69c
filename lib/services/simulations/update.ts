import { SIMULATION } from "../../db/entities/simulation.ts";
import { forgetTotals, jsonObject, Params, queryExactlyOne, RawJson, sqlTransaction } from "../../db/sql.ts";
import { invalidFields, notFound } from "../../errors.ts";
import {
  type Simulation,
  shapeFieldErrors,
  simulationShapeProblems,
  type UpdateSimulationInput,
} from "../../schemas/simulation.ts";
import { isScenario, type SimulationConfig } from "../../simulator/scenarios.ts";
import { lockChangeable } from "../archived.ts";
import { assertEntityPermissions, entityProblems, jsonText, normalizeConfig, settingProblems } from "./rules.ts";

/**
 * Changes a simulation. Archived simulations cannot be changed except to unarchive them. When
 * `type` changes, a payload or config not sent starts again from the new type's defaults (a
 * payload of one event type does not fit another; a config of one scenario not another).
 */
export async function updateSimulation(
  id: string,
  input: UpdateSimulationInput,
  permissions: Set<string>,
): Promise<RawJson<Simulation>> {
  return sqlTransaction(async (client) => {
    const current = await lockChangeable<{ type: string }>(client, "simulations", id, input, "t.type");
    if (!current) throw notFound(id);
    const type = input.type ?? current.type;
    const typeChanged = type !== current.type;
    const shape = shapeFieldErrors(simulationShapeProblems(type, input.payload, input.config));
    if (shape.length > 0) throw invalidFields(shape);

    const columns: [string, unknown, string?][] = [];
    if (input.name !== undefined) columns.push(["name", input.name]);
    if (input.status !== undefined) columns.push(["status", input.status]);
    if (input.type !== undefined) columns.push(["type", input.type]);
    if (input.notification_setting_id !== undefined) {
      columns.push(["notification_setting_id", input.notification_setting_id]);
    }
    if (input.payload !== undefined || typeChanged) {
      const payload = isScenario(type) ? null : (input.payload ?? null);
      columns.push(["payload", jsonText(payload), "json"]);
    }
    let config: SimulationConfig | null = null;
    if (input.config !== undefined || typeChanged) {
      config = normalizeConfig(type, input.config ?? undefined);
      columns.push(["config", jsonText(config), "json"]);
    }
    if (input.config !== undefined) assertEntityPermissions(type, config, permissions);
    const problems = [
      ...(input.notification_setting_id !== undefined
        ? await settingProblems(input.notification_setting_id, client)
        : []),
      ...(input.config !== undefined ? await entityProblems(type, config, client) : []),
    ];
    if (problems.length > 0) throw invalidFields(problems);

    const params = new Params();
    params.values.push(id);
    const sets = ["updated_at = now()"];
    for (const [name, value, cast] of columns) sets.push(`${name} = ${params.add(value)}${cast ? `::${cast}` : ""}`);
    // A new destination deleted since it was checked fails the foreign key: 400 invalid_field on
    // notification_setting_id, by the central mapping of database errors (lib/errors.ts).
    const row = await queryExactlyOne<{ j: string }>(
      `WITH t AS (UPDATE simulations t SET ${sets.join(", ")} WHERE t.id = $1 RETURNING t.*)
       SELECT ${jsonObject(SIMULATION)}::text AS j FROM t`,
      params.values,
      client,
    );
    forgetTotals(SIMULATION.table);
    return new RawJson<Simulation>(row.j);
  });
}
