/**
 * Test helpers for simulations: destinations (notification setting rows) of any type and traffic
 * source, and calls of the nested simulation endpoints. The receiver is lib/dev/test/receiver.ts.
 */
import { query } from "../../db/sql.ts";
import { type ApiResult, call } from "./api.ts";
import { insertDestination, type TestDestination } from "./notifications.ts";
import { type Handlers, type Key, keyOf } from "./resource.ts";

export type Destination = TestDestination;

/** A notification setting row (a webhook destination) taking simulation traffic by default. */
export function createDestination(
  options: {
    destination?: string;
    traffic_source?: string;
    include_sensitive_fields?: boolean;
    active?: boolean;
    type?: string;
  } = {},
): Promise<Destination> {
  return insertDestination(options.destination ?? "http://127.0.0.1:9/unused", [], {
    active: options.active,
    includeSensitive: options.include_sensitive_fields,
    trafficSource: options.traffic_source ?? "simulation",
    type: options.type,
  });
}

export async function updateDestination(id: string, columns: Record<string, unknown>): Promise<void> {
  const names = Object.keys(columns);
  await query(`UPDATE notification_settings SET ${names.map((n, i) => `${n} = $${i + 2}`).join(", ")} WHERE id = $1`, [
    id,
    ...names.map((n) => columns[n]),
  ]);
}

/** Calls `handlers[method]` at `path` with the given path parameters. */
export async function callAt(
  handlers: Handlers,
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  path: string,
  params: Record<string, string>,
  options: { key?: Key; body?: unknown } = {},
): Promise<ApiResult> {
  const handler = handlers[method];
  if (!handler) throw new Error(`no ${method} handler`);
  return call(handler, method, path, { key: await keyOf(options.key), params, body: options.body });
}
