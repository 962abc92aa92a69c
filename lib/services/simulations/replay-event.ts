import { query, type RawJson } from "../../db/sql.ts";
import { ApiError } from "../../errors.ts";
import type { SimulationEvent } from "../../schemas/simulation.ts";
import { sendSimulationEvent } from "../../simulator/runner.ts";
import { getSimulationEvent } from "./get-event.ts";
import { EVENT_UNDER, notFoundUnder } from "./nesting.ts";

/**
 * Sends simulation event `eventId` again, now, and returns it with the new request and response.
 * 409 when the destination cannot receive simulated events any more.
 */
export async function replaySimulationEvent(
  simulationId: string,
  runId: string,
  eventId: string,
): Promise<RawJson<SimulationEvent>> {
  const exists = await query(`SELECT 1 FROM simulation_events t WHERE ${EVENT_UNDER}`, [eventId, runId, simulationId]);
  if (exists.length === 0) return notFoundUnder(simulationId, runId, eventId);
  const result = await sendSimulationEvent(eventId);
  if (result.status === "aborted") {
    throw new ApiError("conflict", `Simulation event ${eventId} cannot be replayed: ${result.reason}`);
  }
  return getSimulationEvent(simulationId, runId, eventId);
}
