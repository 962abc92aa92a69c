import { SIMULATION } from "../../db/entities/simulation.ts";
import { forgetTotals, jsonObject, queryExactlyOne, RawJson } from "../../db/sql.ts";
import { invalidFields } from "../../errors.ts";
import { newId } from "../../ids.ts";
import type { CreateSimulationInput, Simulation } from "../../schemas/simulation.ts";
import { isScenario } from "../../simulator/scenarios.ts";
import { assertEntityPermissions, entityProblems, jsonText, normalizeConfig, settingProblems } from "./rules.ts";

/**
 * `permissions`: the caller's, for the entities `config` names. A single event keeps the payload as
 * sent (null: the example); a scenario's config is stored whole, with its defaults.
 */
export async function createSimulation(
  input: CreateSimulationInput,
  permissions: Set<string>,
): Promise<RawJson<Simulation>> {
  const config = normalizeConfig(input.type, input.config);
  assertEntityPermissions(input.type, config, permissions);
  const problems = [
    ...(await settingProblems(input.notification_setting_id)),
    ...(await entityProblems(input.type, config)),
  ];
  if (problems.length > 0) throw invalidFields(problems);
  const payload = isScenario(input.type) ? null : (input.payload ?? null);
  // A destination deleted since it was checked fails the foreign key: 400 invalid_field on
  // notification_setting_id, by the central mapping of database errors (lib/errors.ts).
  const row = await queryExactlyOne<{ j: string }>(
    `WITH t AS (INSERT INTO simulations (id, notification_setting_id, name, type, payload, config)
                VALUES ($1, $2, $3, $4, $5::json, $6::json) RETURNING *)
     SELECT ${jsonObject(SIMULATION)}::text AS j FROM t`,
    [newId("ntfsim"), input.notification_setting_id, input.name, input.type, jsonText(payload), jsonText(config)],
  );
  forgetTotals(SIMULATION.table);
  return new RawJson<Simulation>(row.j);
}
