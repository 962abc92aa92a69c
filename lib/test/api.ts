/**
 * Calls real route handlers the way Next.js does, with a real Request, for integration tests.
 */
import { PERMISSIONS } from "../auth/permissions.ts";
import { createApiKey } from "../services/api-keys.ts";

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

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

export async function call<T = any>(handler: Handler, method: string, path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
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
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** A sandbox API key with the given permissions (all of them by default). */
export async function testKey(permissions: readonly string[] = PERMISSIONS): Promise<string> {
  const { key } = await createApiKey({ name: "test", permissions: [...permissions] });
  return key;
}
