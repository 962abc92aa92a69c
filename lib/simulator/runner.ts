/**
 * Sending simulated events: the `run_simulation` task (executeSimulationRun) and the replay of one
 * simulation event. Each event is sent as a real delivery is: the envelope
 * {event_id, event_type, occurred_at, notification_id, data}, with `data` redacted for the
 * destination by the same SQL function (`notification_data`) as real notifications, signed with the
 * destination's endpoint_secret_key by sendSigned. The request body sent and the response received
 * are recorded on the simulation event.
 *
 * A run is idempotent: only pending events are sent, and concurrent executions of one run are
 * serialized by an advisory lock, so a job retried or queued twice sends each event once (a crash
 * between a send and its record sends that event again: at least once, like deliveries).
 */

import { pool } from "../db/connection.ts";
import { jsonRecord, query, ts } from "../db/sql.ts";
import { sendSigned } from "../events/send.ts";
import { newId } from "../ids.ts";

/** Destinations that take simulated traffic (`traffic_source`). */
export const SIMULATION_TRAFFIC_SOURCES = ["simulation", "all"] as const;

export interface SimulationTarget {
  setting_id: string | null;
  setting_type: string | null;
  traffic_source: string | null;
  active: boolean | null;
}

/**
 * Why the destination cannot receive simulated events now, or null when it can: it is gone, is
 * not a webhook (url) destination, takes only platform traffic, or is inactive.
 */
export function simulationDestinationProblem(target: SimulationTarget): string | null {
  if (!target.setting_id) return "The simulation's notification setting no longer exists.";
  const name = `Notification setting ${target.setting_id}`;
  if (target.setting_type !== "url") return `${name} is not a url (webhook) destination.`;
  if (!(SIMULATION_TRAFFIC_SOURCES as readonly string[]).includes(target.traffic_source ?? "")) {
    return `${name} has traffic_source ${target.traffic_source}: it does not receive simulation traffic (use simulation or all).`;
  }
  if (!target.active) return `${name} is inactive: no events are sent to it.`;
  return null;
}

export type SendResult =
  | { status: "success" | "failed" }
  | { status: "aborted"; reason: string }
  | { status: "skipped" };

interface Target extends SimulationTarget {
  status: string;
  destination: string | null;
  endpoint_secret_key: string | null;
  body: string;
}

/**
 * Sends simulation event `eventId` to its simulation's destination and records the request and
 * response on it. `onlyPending`: send only if it was not sent yet (the run), else always (a replay,
 * which keeps the event's `event_id` and `occurred_at`: the same event, delivered again under a new
 * `notification_id`). Nothing is recorded when the destination cannot receive it (`aborted`).
 */
export async function sendSimulationEvent(
  eventId: string,
  options: { onlyPending?: boolean; timeoutMs?: number } = {},
): Promise<SendResult> {
  const [target] = await query<Target>(
    `SELECT e.status, s.id AS setting_id, s.type AS setting_type, s.traffic_source, s.active,
            s.destination, s.endpoint_secret_key,
            ${jsonRecord([
              ["event_id", "coalesce((e.request->>'body')::json->>'event_id', $2::text)"],
              ["event_type", "e.event_type"],
              ["occurred_at", `coalesce((e.request->>'body')::json->>'occurred_at', ${ts("clock_timestamp()")})`],
              ["notification_id", "$3::text"],
              ["data", "notification_data(e.event_type, e.payload, coalesce(s.include_sensitive_fields, false))"],
            ])}::text AS body
     FROM simulation_events e
     JOIN simulation_runs r ON r.id = e.simulation_run_id
     JOIN simulations sim ON sim.id = r.simulation_id
     LEFT JOIN notification_settings s ON s.id = sim.notification_setting_id
     WHERE e.id = $1`,
    [eventId, newId("evt"), newId("ntf")],
  );
  if (!target) return { status: "skipped" };
  if (options.onlyPending && target.status !== "pending") return { status: "skipped" };
  const problem = simulationDestinationProblem(target);
  if (problem || !target.destination || !target.endpoint_secret_key) {
    return { status: "aborted", reason: problem ?? "The destination cannot be reached." };
  }
  const outcome = await sendSigned(target.destination, target.endpoint_secret_key, target.body, {
    timeoutMs: options.timeoutMs,
  });
  const status = outcome.ok ? "success" : "failed";
  // No answer at all (refused, timed out): `response` stays null, as in the API family.
  await query(
    `UPDATE simulation_events
     SET status = $2,
         request = ${jsonRecord([["body", "$3::text"]])},
         response = CASE WHEN $4::int IS NULL THEN NULL
                         ELSE ${jsonRecord([
                           ["body", "coalesce($5::text, '')"],
                           ["status_code", "$4::int"],
                         ])} END,
         updated_at = now()
     WHERE id = $1 AND ($6::boolean IS FALSE OR status = 'pending')`,
    [eventId, status, target.body, outcome.statusCode, outcome.body, options.onlyPending ?? false],
  );
  return { status };
}

/**
 * The `run_simulation` task: sends every pending event of run `runId` in order (each after the
 * previous one was answered), then marks the run completed. When the destination cannot receive
 * them (gone, platform-only, inactive), the remaining events are aborted and the run canceled.
 * Calling it again for a finished run does nothing.
 */
export async function executeSimulationRun(runId: string, options: { timeoutMs?: number } = {}): Promise<void> {
  const lock = await pool().connect();
  try {
    // Serializes executions of the same run across processes; released below (or with the session).
    await lock.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [`simulation_run:${runId}`]);
    try {
      const [run] = await query<{ status: string }>("SELECT status FROM simulation_runs WHERE id = $1", [runId]);
      if (run?.status !== "pending") return;
      const events = await query<{ id: string }>(
        "SELECT id FROM simulation_events WHERE simulation_run_id = $1 AND status = 'pending' ORDER BY id",
        [runId],
      );
      for (const event of events) {
        const result = await sendSimulationEvent(event.id, { onlyPending: true, timeoutMs: options.timeoutMs });
        if (result.status === "aborted") {
          await query(
            "UPDATE simulation_events SET status = 'aborted', updated_at = now() WHERE simulation_run_id = $1 AND status = 'pending'",
            [runId],
          );
          await query(
            "UPDATE simulation_runs SET status = 'canceled', updated_at = now() WHERE id = $1 AND status = 'pending'",
            [runId],
          );
          return;
        }
      }
      await query(
        "UPDATE simulation_runs SET status = 'completed', updated_at = now() WHERE id = $1 AND status = 'pending'",
        [runId],
      );
    } finally {
      await lock.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [`simulation_run:${runId}`]);
    }
  } finally {
    lock.release();
  }
}
