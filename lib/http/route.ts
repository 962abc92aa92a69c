/**
 * The route wrapper of DESIGN.md: every API route is
 *   export const GET = route({ permission, params, query, body }, async ({ input, auth }) => …)
 * It does, in order: request id, authentication, permission, version header, parsing of path,
 * query and body into typed input, the call, the envelope, and the mapping of every error.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { config } from "../config.ts";
import { toJsonText } from "../json.ts";
import { type AuthContext, authenticate, requirePermission } from "./auth.ts";
import { ApiError, fromZodError } from "./errors.ts";
import { guardInput } from "./input-guard.ts";
import { ListResult, nextUrl } from "./pagination.ts";
import { CURRENT_VERSION, SUPPORTED_VERSIONS } from "./versions.ts";

export { CURRENT_VERSION, SUPPORTED_VERSIONS };

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

interface RouteOptions<P, Q, B> {
  /**
   * The permission needed, or null for an endpoint open to any authenticated caller; `public` needs
   * no credentials; `signed` is for links that carry their own signature (document links): any
   * credentials sent along (a dashboard cookie on a link opened from an email) are not looked at.
   */
  permission: string | null | "public" | "signed";
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out entirely (no bytes): the body schema then parses `undefined`. */
  optionalBody?: boolean;
  /** 201 for creations, 202 for work accepted to be done later (a notification replay). */
  status?: 200 | 201 | 202;
}

export interface RouteContext<P, Q, B> {
  input: { params: Out<P>; query: Out<Q>; body: Out<B> };
  auth: AuthContext;
  request: Request;
  requestId: string;
  version: number;
}

type NextContext = { params: Promise<Record<string, string | string[]>> };

/** The address the caller used (behind a proxy: the forwarded host and protocol). */
function publicOrigin(request: Request): URL {
  const url = new URL(request.url);
  const forwardedHost = request.headers.get("x-forwarded-host");
  const forwardedProto = request.headers.get("x-forwarded-proto");
  if (forwardedHost) url.host = forwardedHost;
  else {
    const host = request.headers.get("host");
    if (host) url.host = host;
  }
  if (forwardedProto) url.protocol = `${forwardedProto}:`;
  return url;
}

function json(body: unknown, status: number, requestId: string, extra?: Record<string, string>): Response {
  return text(JSON.stringify(body), status, requestId, extra);
}

function text(body: string, status: number, requestId: string, extra?: Record<string, string>): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, ...extra },
  });
}

export function errorResponse(error: unknown, request: Request, requestId: string): Response {
  const apiError = toApiError(error, requestId);
  const origin = publicOrigin(request);
  const body = {
    error: {
      type: apiError.status >= 500 ? "api_error" : "request_error",
      code: apiError.code,
      detail: apiError.detail,
      documentation_url: `${origin.origin}/docs/errors/${apiError.code}`,
      ...(apiError.errors ? { errors: apiError.errors } : {}),
    },
    meta: { request_id: requestId },
  };
  return json(body, apiError.status, requestId, apiError.headers);
}

/** Maps whatever was thrown to an ApiError. Unknown errors are logged and never leak. */
export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof z.ZodError) return fromZodError(error);
  const code = (error as { code?: unknown })?.code;
  if (code === "P2025") return new ApiError("not_found", "Entity not found");
  if (code === "P2002") return new ApiError("conflict", "A unique value is already in use by another entity.");
  console.error(`[${requestId}] internal error`, error);
  return new ApiError("internal_error", `An internal error occurred. Quote request ID ${requestId} to support.`);
}

function parseVersion(request: Request): number {
  const header = request.headers.get("service-version");
  if (header === null || header.trim() === "") return CURRENT_VERSION;
  const version = /^\d+$/.test(header.trim()) ? Number(header.trim()) : Number.NaN;
  if (!SUPPORTED_VERSIONS.has(version)) {
    throw new ApiError(
      "invalid_version",
      `Service-Version ${header} is not a version of this API. Supported: ${[...SUPPORTED_VERSIONS].join(", ")}.`,
    );
  }
  return version;
}

async function readBody(request: Request, optional = false): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > config.maxBodyBytes) {
    throw new ApiError("request_too_large", `Request body is larger than ${config.maxBodyBytes} bytes.`);
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > config.maxBodyBytes) {
    throw new ApiError("request_too_large", `Request body is larger than ${config.maxBodyBytes} bytes.`);
  }
  if (text.trim() === "") {
    if (optional) return undefined;
    throw new ApiError("bad_request", "Request body is empty; send a JSON object.");
  }
  if (!/^application\/(.+\+)?json\b/i.test(type.trim())) {
    throw new ApiError("bad_request", "Request body must be sent with Content-Type: application/json.");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("bad_request", "Request body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError("bad_request", "Request body must be a JSON object.");
  }
  return value;
}

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) out[key] = value;
  return out;
}

export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(options: RouteOptions<P, Q, B>, handler: (ctx: RouteContext<P, Q, B>) => Promise<unknown>) {
  return async function handle(request: Request, context?: NextContext): Promise<Response> {
    const requestId = randomUUID();
    try {
      const isPublic = options.permission === "public" || options.permission === "signed";
      const auth: AuthContext =
        options.permission === "signed"
          ? { type: "none", permissions: new Set() }
          : await authenticate(request, !isPublic);
      if (options.permission && !isPublic) requirePermission(auth, options.permission);
      const version = parseVersion(request);

      let params: unknown;
      if (options.params) {
        const raw = (await context?.params) ?? {};
        const parsed = options.params.safeParse(raw);
        // A path ID that is not even shaped like one names no entity: 404, as for an unknown ID.
        if (!parsed.success) throw new ApiError("not_found", `Entity ${Object.values(raw).join("/")} not found`);
        params = parsed.data;
      }
      const url = new URL(request.url);
      let query: unknown;
      if (options.query) {
        const raw = queryObject(url);
        guardInput(raw);
        const parsed = options.query.safeParse(raw);
        if (!parsed.success) throw fromZodError(parsed.error);
        query = parsed.data;
      }
      let body: unknown;
      if (options.body) {
        const raw = await readBody(request, options.optionalBody);
        guardInput(raw);
        const parsed = options.body.safeParse(raw);
        if (!parsed.success) throw fromZodError(parsed.error);
        body = parsed.data;
      }

      const result = await handler({
        input: { params, query, body } as RouteContext<P, Q, B>["input"],
        auth,
        request,
        requestId,
        version,
      });
      if (result instanceof Response) return result;
      if (result instanceof ListResult) {
        const pagination = {
          per_page: result.perPage,
          next: nextUrl(publicOrigin(request), result.lastId),
          has_more: result.hasMore,
          estimated_total: result.estimatedTotal,
        };
        const meta = JSON.stringify({ request_id: requestId, pagination });
        return text(`{"data":${toJsonText(result.data)},"meta":${meta}}`, 200, requestId);
      }
      const meta = `{"request_id":${JSON.stringify(requestId)}}`;
      return text(`{"data":${toJsonText(result)},"meta":${meta}}`, options.status ?? 200, requestId);
    } catch (error) {
      return errorResponse(error, request, requestId);
    }
  };
}

/** For the HTTP methods a path does not support: 405 in the API's error shape. */
export async function methodNotAllowed(request: Request): Promise<Response> {
  const requestId = randomUUID();
  return errorResponse(
    new ApiError("method_not_allowed", `${request.method} is not allowed on this path.`),
    request,
    requestId,
  );
}

/** For paths no endpoint has. */
export async function routeNotFound(request: Request): Promise<Response> {
  const requestId = randomUUID();
  return errorResponse(
    new ApiError("not_found", `No endpoint ${request.method} ${new URL(request.url).pathname}.`),
    request,
    requestId,
  );
}
