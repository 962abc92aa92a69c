/**
 * Calls real route handlers the way Next.js does, with a real Request, for integration tests.
 */
import { expect } from "vitest";
import { PERMISSIONS } from "../../auth/permissions.ts";
import { type DeclaredHandler, PaginatedList } from "../../http/route.ts";
import { type ErrorBody, errorSchema, metaSchema, paginatedMetaSchema } from "../../schemas/envelope.ts";
import { assertStrict } from "../../schemas/strict.ts";
import { createApiKey } from "../../services/api-keys.ts";
import { expectFamilyConformance } from "./family-openapi.ts";

export type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
}

export interface ApiResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export const BASE = "http://localhost:3000/api";

export async function call<T = any>(
  handler: Handler,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`${BASE}${path}`, { method, headers, body });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  const result = { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  expectDeclaredResponse(handler, result);
  expectFamilyResponse(request, result);
  return result;
}

let unchecked = 0;

/**
 * Runs `fn` without the check of successful responses against their schemas, ours and the family's:
 * for a test that writes a row the product never writes (a stored value of an older shape) to see
 * that it is passed through. Error bodies are still checked.
 */
export async function withoutSchemaCheck<T>(fn: () => Promise<T>): Promise<T> {
  unchecked++;
  try {
    return await fn();
  } finally {
    unchecked--;
  }
}

/**
 * Every JSON answer a test sees matches its envelope (lib/schemas/envelope.ts) strictly, and every
 * success its route's declared response schema (lib/schemas/strict.ts): the integration suite holds
 * the schemas, and so the OpenAPI document, to the wire.
 */
function expectDeclaredResponse(handler: Handler, result: ApiResult): void {
  if (!result.headers.get("content-type")?.includes("json")) return;
  if (result.status >= 400) {
    assertStrict(errorSchema, result.body, "the error body");
    return;
  }
  if (unchecked > 0) return;
  const declaration = (handler as Partial<DeclaredHandler>).declaration;
  const declared = declaration?.response;
  if (!declared || typeof declared === "string" || result.status < 200 || result.status >= 300) return;
  const { data, meta, ...rest } = result.body as { data?: unknown; meta?: unknown };
  if (Object.keys(rest).length > 0) throw new Error(`the envelope has more than data and meta: ${Object.keys(rest)}`);
  if (!declaration.withoutMeta) {
    assertStrict(declared instanceof PaginatedList ? paginatedMetaSchema : metaSchema, meta, "meta");
  }
  if (declared instanceof PaginatedList) {
    if (!Array.isArray(data)) throw new Error(`a paginated list answered ${JSON.stringify(result.body)}`);
    data.forEach((item, i) => {
      assertStrict(declared.item, item, `data[${i}] of the list`);
    });
  } else {
    assertStrict(declared, data, "data");
  }
}

/**
 * Every 2xx and 4xx JSON answer of an operation the family has (method and path template, our `/api`
 * prefix removed) matches the family's schema for that operation and status too (the family's
 * OpenAPI document: lib/dev/test/family-openapi.ts). Operations of our own are not checked there.
 */
function expectFamilyResponse(request: Request, result: ApiResult): void {
  if (!result.headers.get("content-type")?.includes("json")) return;
  const { status } = result;
  if (status >= 200 && status < 300) {
    if (unchecked > 0) return;
  } else if (status < 400 || status >= 500) return;
  expectFamilyConformance(request.method, request.url, status, result.body);
}

/** A sandbox API key with the given permissions (all of them by default). */
export async function testKey(permissions: readonly string[] = PERMISSIONS): Promise<string> {
  const { key } = await createApiKey({ name: "test", permissions: [...permissions] });
  return key;
}

/** A sandbox API key with the given permissions, with its ID (for tests that change the key's row). */
export async function testKeyWithId(
  permissions: readonly string[] = PERMISSIONS,
): Promise<{ id: string; key: string }> {
  const { id, key } = await createApiKey({ name: "test", permissions: [...permissions] });
  return { id, key };
}

/** The path and query of a `meta.pagination.next` URL, to pass to `call` again. */
export function nextPath(next: string): string {
  const url = new URL(next);
  return `${url.pathname.replace(/^\/api(?=\/)/, "")}${url.search}`;
}

export type { ErrorBody };

/**
 * Checks an error response: the status, the code and the shape every error has (spec: Errors).
 * Returns the `error` object for further checks.
 */
export function expectError(result: ApiResult, status: number, code: string): ErrorBody["error"] {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  // The shape (types, the documentation URL, no `data`) is the envelope's (lib/schemas/envelope.ts).
  assertStrict(errorSchema, result.body, "the error body");
  const body = result.body as ErrorBody;
  expect(body.error.code).toBe(code);
  expect(body.error.type).toBe(status >= 500 ? "api_error" : "request_error");
  expect(body.error.detail.length).toBeGreaterThan(0);
  expect(body.meta.request_id.length).toBeGreaterThan(0);
  expect(result.headers.get("x-request-id")).toBe(body.meta.request_id);
  return body.error;
}

/** The field names of an invalid_field error. */
export function errorFields(result: ApiResult): string[] {
  return ((result.body as ErrorBody).error.errors ?? []).map((e) => e.field);
}

/**
 * Checks a 400 invalid_field error (with everything `expectError` checks) that names `field` among
 * its errors. Returns the `error` object for further checks.
 */
export function expectFieldError(result: ApiResult, field: string): ErrorBody["error"] {
  const error = expectError(result, 400, "invalid_field");
  expect(errorFields(result)).toContain(field);
  return error;
}

/** Checks a 404 not_found error; with `id`, that the detail names it. */
export function expectNotFound(result: ApiResult, id?: string): ErrorBody["error"] {
  const error = expectError(result, 404, "not_found");
  if (id !== undefined) expect(error.detail).toContain(id);
  return error;
}
