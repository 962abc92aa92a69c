import { SIMULATION_EVENT } from "../../db/entities/simulation.ts";
import { getJson, type RawJson } from "../../db/sql.ts";
import type { SimulationEvent } from "../../schemas/simulation.ts";
import { EVENT_UNDER, notFoundUnder } from "./nesting.ts";

export async function getSimulationEvent(
  simulationId: string,
  runId: string,
  eventId: string,
): Promise<RawJson<SimulationEvent>> {
  const event = await getJson(SIMULATION_EVENT, EVENT_UNDER, [eventId, runId, simulationId]);
  return event ?? notFoundUnder(simulationId, runId, eventId);
}
