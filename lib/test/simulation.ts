/**
 * Test helpers for simulations: destinations (notification setting rows) of any type and traffic
 * source, and calls of the nested simulation endpoints. The receiver is lib/test/receiver.ts.
 */
import { query } from "../db/sql.ts";
import { newEndpointSecretKey } from "../events/signature.ts";
import { newId } from "../ids.ts";
import { type ApiResult, call, type Handler } from "./api.ts";
import { admin, type Key } from "./resource.ts";

export interface Destination {
  id: string;
  secret: string;
}

/** A notification setting row (a webhook destination) taking simulation traffic by default. */
export async function createDestination(
  options: {
    destination?: string;
    traffic_source?: string;
    include_sensitive_fields?: boolean;
    active?: boolean;
    type?: string;
  } = {},
): Promise<Destination> {
  const id = newId("ntfset");
  const secret = newEndpointSecretKey();
  await query(
    `INSERT INTO notification_settings
       (id, description, type, destination, active, api_version, include_sensitive_fields, subscribed_events,
        endpoint_secret_key, traffic_source)
     VALUES ($1, 'Simulation tests', $2, $3, $4, 1, $5, ARRAY[]::text[], $6, $7)`,
    [
      id,
      options.type ?? "url",
      options.destination ?? "http://127.0.0.1:9/unused",
      options.active ?? true,
      options.include_sensitive_fields ?? false,
      secret,
      options.traffic_source ?? "simulation",
    ],
  );
  return { id, secret };
}

export async function updateDestination(id: string, columns: Record<string, unknown>): Promise<void> {
  const names = Object.keys(columns);
  await query(`UPDATE notification_settings SET ${names.map((n, i) => `${n} = $${i + 2}`).join(", ")} WHERE id = $1`, [
    id,
    ...names.map((n) => columns[n]),
  ]);
}

type Handlers = Partial<Record<"GET" | "POST" | "PATCH" | "PUT" | "DELETE", Handler>>;

async function keyOf(key: Key): Promise<string | null> {
  return key === undefined ? admin() : key;
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
