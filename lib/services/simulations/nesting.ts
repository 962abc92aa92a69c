/**
 * Runs are under a simulation and events under a run: the SQL that finds an event under its run
 * and simulation, and the 404 that names the first ID of a path that names nothing.
 */
import { query } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";

/** `t` (a simulation event) is $1, of run $2, of simulation $3. */
export const EVENT_UNDER = `t.id = $1 AND t.simulation_run_id = $2
  AND EXISTS (SELECT 1 FROM simulation_runs r WHERE r.id = $2 AND r.simulation_id = $3)`;

/**
 * The 404 for a path under a simulation that named nothing: it names the first ID of the path
 * that does not exist (or does not belong to the one before it).
 */
export async function notFoundUnder(simulationId: string, runId?: string, eventId?: string): Promise<never> {
  const [row] = await query<{ simulation: boolean; run: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM simulations WHERE id = $1) AS simulation,
            EXISTS (SELECT 1 FROM simulation_runs WHERE id = $2 AND simulation_id = $1) AS run`,
    [simulationId, runId ?? null],
  );
  if (!row?.simulation) throw notFound(simulationId);
  if (runId && !row.run) throw notFound(runId);
  throw notFound(eventId ?? runId ?? simulationId);
}
