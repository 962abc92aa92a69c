import { SIMULATION } from "../../db/entities/simulation.ts";
import { getJson, type RawJson } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import type { Simulation } from "../../schemas/simulation.ts";

export async function getSimulation(id: string): Promise<RawJson<Simulation>> {
  const simulation = await getJson(SIMULATION, "t.id = $1", [id]);
  if (!simulation) throw notFound(id);
  return simulation;
}
