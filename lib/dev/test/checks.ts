/**
 * Checks that integration tests of several resources repeat: permissions, length limits, methods a
 * path lacks, and the events an entity has.
 */
import { expect } from "vitest";
import { PERMISSIONS } from "../../auth/permissions.ts";
import { db } from "../../db/connection.ts";
import { type ApiResult, call, expectError, expectFieldError, testKey } from "./api.ts";
import { admin, type Handlers } from "./resource.ts";

/** Every permission except those of one resource (e.g. "product."). */
export function permissionsWithout(prefix: string): string[] {
  return PERMISSIONS.filter((p) => !p.startsWith(prefix));
}

type Request = (key: string) => Promise<ApiResult>;

/**
 * With a key of each permission set in `denied`, `request` is refused with 403 forbidden; with
 * `permission`, the error's detail names it.
 */
export async function expectForbidden(
  request: Request,
  denied: readonly (readonly string[])[],
  permission?: string,
): Promise<void> {
  for (const perms of denied) {
    const error = expectError(await request(await testKey(perms)), 403, "forbidden");
    if (permission !== undefined) expect(error.detail).toContain(permission);
  }
}

/** With a key of each permission set in `allowed`, `request` answers `status`. Returns the results. */
export async function expectAllowed(
  request: Request,
  allowed: readonly (readonly string[])[],
  status: number,
): Promise<ApiResult[]> {
  const results: ApiResult[] = [];
  for (const perms of allowed) {
    const res = await request(await testKey(perms));
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    results.push(res);
  }
  return results;
}

/**
 * A permission matrix: `request` is 403 forbidden (naming `permission`) with each set in `denied`,
 * and answers `status` with each set in `allowed` (by default exactly `permission`).
 */
export async function expectPermission(
  request: Request,
  options: {
    permission: string;
    denied: readonly (readonly string[])[];
    allowed?: readonly (readonly string[])[];
    status?: number;
  },
): Promise<ApiResult[]> {
  await expectForbidden(request, options.denied, options.permission);
  return expectAllowed(request, options.allowed ?? [[options.permission]], options.status ?? 200);
}

/**
 * `send(value)` accepts a value of `max` characters (answering `status`, and storing it as sent
 * under `field`) and refuses one of `max + 1` with invalid_field naming `field`.
 * Returns both results for further checks.
 */
export async function expectMaxLength(
  send: (value: string) => Promise<ApiResult>,
  field: string,
  max: number,
  options: { status: number; char?: string; stored?: boolean },
): Promise<{ ok: ApiResult; refused: ApiResult }> {
  const char = options.char ?? "x";
  const ok = await send(char.repeat(max));
  expect(ok.status, JSON.stringify(ok.body)).toBe(options.status);
  if (options.stored ?? true) expect(ok.body.data[field]).toBe(char.repeat(max));
  const refused = await send(char.repeat(max + 1));
  expectFieldError(refused, field);
  return { ok, refused };
}

/** `path` answers 405 method_not_allowed to each of `methods` (with an admin key). */
export async function expectMethodsNotAllowed(
  handlers: Handlers,
  methods: readonly (keyof Handlers)[],
  path: string,
  params?: Record<string, string>,
): Promise<void> {
  for (const method of methods) {
    const handler = handlers[method];
    if (!handler) throw new Error(`no ${method} handler`);
    expectError(await call(handler, method, path, { key: await admin(), params }), 405, "method_not_allowed");
  }
}

/** The events of an entity, oldest first. */
export function events(entityId: string) {
  return db().event.findMany({ where: { entityId }, orderBy: { id: "asc" } });
}

/** The entity has exactly one event, of `type`, whose data is `data`. Returns the event. */
export async function expectOnlyEvent(entityId: string, type: string, data: unknown) {
  const rows = await events(entityId);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.eventType).toBe(type);
  expect(rows[0]!.id).toMatch(/^evt_[a-z0-9]{26}$/);
  expect(rows[0]!.data).toEqual(data);
  return rows[0];
}
