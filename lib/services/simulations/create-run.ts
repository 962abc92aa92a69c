import type pg from "pg";
import { SIMULATION_EVENT, SIMULATION_RUN } from "../../db/entities/simulation.ts";
import { forgetTotals, getJson, query, type RawJson, sqlTransaction, storableJson } from "../../db/sql.ts";
import { ApiError, notFound } from "../../errors.ts";
import { queueSimulationRun } from "../../events/jobs/run-simulation.ts";
import { newId } from "../../ids.ts";
import type { SimulationRun } from "../../schemas/simulation.ts";
import type { Json } from "../../simulator/examples/common.ts";
import { simulationDestinationProblem } from "../../simulator/runner.ts";
import type { SimulatedEvent, SimulationConfig } from "../../simulator/scenarios.ts";
import { assertEntityPermissions } from "./rules.ts";
import { simulatedEvents } from "./run-events.ts";

/**
 * Creates a run of simulation `simulationId`: the run and its events (pending, in the order they
 * are sent, with their payloads), the simulation's `last_run_at`, and the job that sends them,
 * all in one transaction. The caller needs read permission for the entities the config names now
 * too (the payloads carry their data).
 */
export async function createSimulationRun(
  simulationId: string,
  permissions: Set<string>,
): Promise<RawJson<SimulationRun>> {
  return sqlTransaction(async (client) => {
    const [simulation] = await query<{
      type: string;
      status: string;
      payload: Json | null;
      config: SimulationConfig | null;
      setting_id: string | null;
      setting_type: string | null;
      traffic_source: string | null;
      active: boolean | null;
    }>(
      `SELECT s.type, s.status, s.payload, s.config,
              n.id AS setting_id, n.type AS setting_type, n.traffic_source, n.active
       FROM simulations s LEFT JOIN notification_settings n ON n.id = s.notification_setting_id
       WHERE s.id = $1 FOR UPDATE OF s`,
      [simulationId],
      client,
    );
    if (!simulation) throw notFound(simulationId);
    if (simulation.status === "archived") {
      throw new ApiError(
        "entity_archived",
        `${simulationId} is archived and cannot be run; set its status to active first.`,
      );
    }
    const problem = simulationDestinationProblem(simulation);
    if (problem) throw new ApiError("conflict", `Simulation ${simulationId} cannot be run: ${problem}`);
    assertEntityPermissions(simulation.type, simulation.config, permissions);
    const events = await simulatedEvents(simulation.type, simulation.payload, simulation.config, permissions, client);

    const runId = newId("ntfsimrun");
    await query(
      "INSERT INTO simulation_runs (id, simulation_id, status, type) VALUES ($1, $2, 'pending', $3)",
      [runId, simulationId, simulation.type],
      client,
    );
    await insertEvents(client, runId, events);
    await query("UPDATE simulations SET last_run_at = now() WHERE id = $1", [simulationId], client);
    await queueSimulationRun(client, runId);
    forgetTotals(SIMULATION_RUN.table);
    forgetTotals(SIMULATION_EVENT.table);
    const run = await getJson(SIMULATION_RUN, "t.id = $1", [runId], client);
    if (!run) throw new Error(`run ${runId} vanished in its own transaction`);
    return run;
  });
}

async function insertEvents(client: pg.PoolClient, runId: string, events: SimulatedEvent[]): Promise<void> {
  // IDs are monotonic, so ID order is the order the events are sent in.
  const ids = events.map(() => newId("ntfsimevt"));
  await query(
    `INSERT INTO simulation_events (id, simulation_run_id, status, event_type, payload)
     SELECT u.id, $2, 'pending', u.event_type, u.payload::json
     FROM unnest($1::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(id, event_type, payload, n)
     ORDER BY u.n`,
    [ids, runId, events.map((e) => e.event_type), events.map((e) => storableJson(e.payload))],
    client,
  );
}
