/**
 * The webhook simulator's entities as the API returns them (rendered by PostgreSQL from these field
 * lists): simulations, their runs and the simulated events of a run.
 */

import type { Simulation, SimulationEvent, SimulationRun } from "../../schemas/simulation.ts";
import { type EntityTable, includable, ts } from "../sql.ts";

/** The simulation's API shape (spec: Simulation), in the spec's field order. */
export const SIMULATION: EntityTable<Simulation> = {
  table: "simulations",
  fields: [
    ["id", "t.id"],
    ["notification_setting_id", "t.notification_setting_id"],
    ["name", "t.name"],
    ["type", "t.type"],
    ["status", "t.status"],
    ["payload", "t.payload"],
    ["config", "t.config"],
    ["last_run_at", ts("t.last_run_at")],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};

/** The simulation event's API shape (spec: Simulation event). */
export const SIMULATION_EVENT: EntityTable<SimulationEvent> = {
  table: "simulation_events",
  fields: [
    ["id", "t.id"],
    ["status", "t.status"],
    ["event_type", "t.event_type"],
    ["payload", "t.payload"],
    ["request", "t.request"],
    ["response", "t.response"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};

/** The simulation run, as the API family has it: id, status, type, created_at, updated_at. */
export const SIMULATION_RUN: EntityTable<SimulationRun> = {
  table: "simulation_runs",
  fields: [
    ["id", "t.id"],
    ["status", "t.status"],
    ["type", "t.type"],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};

/** With `include=events`: the run's simulation events, in the order they are sent. */
export const simulationRunEntity = includable<SimulationRun, SimulationRun>(
  SIMULATION_RUN,
  "events",
  () => SIMULATION_EVENT,
  "t.simulation_run_id = parent.id",
  true,
);
