/**
 * The route wrapper (docs/architecture.md, One request, one path): every API route is
 *   export const GET = route({ permission, params, query, body }, async ({ input, auth }) => …)
 * It does, in order: request id, authentication, permission, version header, parsing of path,
 * query and body into typed input, the call, the envelope, and the mapping of every error.
 */
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { config } from "../config.ts";
import { ApiError, fromZodError, notFound } from "../errors.ts";
import { toJsonText } from "../json.ts";
import { SUPPORTED_VERSIONS } from "../versions.ts";
import { type AuditTrail, auditRequest, isAudited } from "./audit.ts";
import { type AuthContext, authenticate, requirePermission } from "./auth.ts";
import { decodeUtf8, readBodyBytes } from "./body.ts";
import { fileResponse, redirectResponse } from "./file-response.ts";
import { type IdempotencyClaim, startIdempotent } from "./idempotency.ts";
import { guardInput } from "./input-guard.ts";
import { ListResult, nextUrl } from "./pagination.ts";
import { checkRateLimit, rateLimitError, withRateLimitHeaders } from "./rate-limit.ts";
import { apiErrorResponse, jsonText } from "./response.ts";
import { FileResult, RedirectResult } from "./results.ts";

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A paginated list of `item` (the handler returns a ListResult): `data` is an array, `meta.pagination` is set. */
export class PaginatedList<S extends Schema = Schema> {
  constructor(readonly item: S) {}
}

export function paginated<S extends Schema>(item: S): PaginatedList<S> {
  return new PaginatedList(item);
}

/**
 * What a route answers on success: the zod schema of `data` in the envelope (a plain array schema
 * for a list that is not paginated), a paginated list, or no JSON at all: `no_content` (204, empty
 * body), `pdf` (a document), `csv` (a report file), `json_document` (JSON outside the envelope: the
 * OpenAPI document itself). The OpenAPI document (lib/http/openapi.ts) and the integration tests'
 * strict check of every response (lib/dev/test/api.ts) read it.
 */
export type ResponseDeclaration = Schema | PaginatedList | "no_content" | "pdf" | "csv" | "json_document";

/** A route as declared: read by the OpenAPI document and the tests. */
export interface RouteDeclaration {
  permission: string | null | "public" | "signed";
  summary?: string;
  response?: ResponseDeclaration;
  params?: Schema;
  query?: Schema;
  body?: Schema;
  optionalBody?: boolean;
  status?: 200 | 201 | 202;
  /** The body is `{ data }` alone, without `meta` (GET /health, the benchmark's bare handler). */
  withoutMeta?: boolean;
}

export type DeclaredHandler = ((request: Request, context?: NextContext) => Promise<Response>) & {
  declaration: RouteDeclaration;
};

/** Attaches a declaration to a handler that is not built by route() (GET /health). */
export function declared<H extends (...args: never[]) => unknown>(
  handler: H,
  declaration: RouteDeclaration,
): H & { declaration: RouteDeclaration } {
  return Object.assign(handler, { declaration });
}

interface RouteOptions<P, Q, B> {
  /**
   * One short sentence: the operation's summary in the API reference. Every route under app/api
   * has it and `response` (lib/http/openapi.test.ts); routes outside /api (portal, js-api) need not.
   */
  summary?: string;
  /** What a success answers (ResponseDeclaration). */
  response?: ResponseDeclaration;
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
}

type NextContext = { params: Promise<Record<string, string | string[]>> };

/** Refuses a Service-Version header that names no version of this API (left out: the current one). */
function checkVersion(request: Request): void {
  const header = request.headers.get("service-version");
  if (header === null || header.trim() === "") return;
  const version = /^\d+$/.test(header.trim()) ? Number(header.trim()) : Number.NaN;
  if (!SUPPORTED_VERSIONS.has(version)) {
    throw new ApiError(
      "invalid_version",
      `Service-Version ${header} is not a version of this API. Supported: ${[...SUPPORTED_VERSIONS].join(", ")}.`,
    );
  }
}

/** The request's JSON object body (bad_request when it is not one); shared with lib/http/client-route.ts. */
export async function readBody(request: Request, optional = false): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  const text = decodeUtf8(await readBodyBytes(request, config.maxBodyBytes));
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

/**
 * The request's path and query under PUBLIC_URL: `meta.pagination.next` is built from it, never
 * from the Host or X-Forwarded-Host headers, which any caller can forge.
 */
function publicUrlOf(request: Request): URL {
  const url = new URL(request.url);
  return new URL(`${config.publicUrl}${url.pathname}${url.search}`);
}

export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
>(options: RouteOptions<P, Q, B>, handler: (ctx: RouteContext<P, Q, B>) => Promise<unknown>): DeclaredHandler {
  return Object.assign(handle, { declaration: options as RouteDeclaration });

  async function handle(request: Request, context?: NextContext): Promise<Response> {
    const requestId = randomUUID();
    // Rate limits first (lib/http/rate-limit.ts): a refused request costs no authentication.
    const limit = await checkRateLimit(request);
    if (limit && !limit.decision.allowed) return apiErrorResponse(rateLimitError(limit), requestId);
    // Idempotency-Key (lib/http/idempotency.ts): claimed once the request is known valid.
    const idempotent: { claim?: IdempotencyClaim } = {};
    const audit: AuditTrail = {};
    let response = await handleRequest(request, context, requestId, idempotent, audit);
    if (idempotent.claim) response = await idempotent.claim.finish(response);
    if (audit.auth) await auditRequest(request, requestId, response.status, audit);
    return withRateLimitHeaders(response, limit);
  }

  async function handleRequest(
    request: Request,
    context: NextContext | undefined,
    requestId: string,
    idempotent: { claim?: IdempotencyClaim },
    audit: AuditTrail,
  ): Promise<Response> {
    try {
      const isPublic = options.permission === "public" || options.permission === "signed";
      const auth: AuthContext =
        options.permission === "signed"
          ? { type: "none", permissions: new Set() }
          : await authenticate(request, !isPublic);
      if (options.permission && !isPublic) requirePermission(auth, options.permission);
      checkVersion(request);

      let params: unknown;
      if (options.params) {
        const raw = (await context?.params) ?? {};
        const parsed = options.params.safeParse(raw);
        // A path ID that is not even shaped like one names no entity: 404, as for an unknown ID.
        if (!parsed.success) throw notFound(Object.values(raw).join("/"));
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
      let raw: unknown;
      if (options.body) {
        raw = await readBody(request, options.optionalBody);
        guardInput(raw);
        const parsed = options.body.safeParse(raw);
        if (!parsed.success) throw fromZodError(parsed.error);
        body = parsed.data;
      }
      const start = await startIdempotent(request, auth, raw, requestId);
      if (start && "replay" in start) return start.replay;
      if (start) idempotent.claim = start.claim;
      if (isAudited(request, auth)) {
        audit.auth = auth;
        audit.body = raw;
      }

      const result = await handler({
        input: { params, query, body } as RouteContext<P, Q, B>["input"],
        auth,
        request,
        requestId,
      });
      if (result instanceof Response) return result;
      if (result instanceof FileResult) return fileResponse(result);
      if (result instanceof RedirectResult) return redirectResponse(result);
      if (result instanceof ListResult) {
        const pagination = {
          per_page: result.perPage,
          next: nextUrl(publicUrlOf(request), result.lastId),
          has_more: result.hasMore,
          estimated_total: result.estimatedTotal,
        };
        const meta = JSON.stringify({ request_id: requestId, pagination });
        return jsonText(`{"data":${toJsonText(result.data)},"meta":${meta}}`, 200, requestId);
      }
      const meta = `{"request_id":${JSON.stringify(requestId)}}`;
      const data = toJsonText(result);
      if (audit.auth) audit.answer = data;
      return jsonText(`{"data":${data},"meta":${meta}}`, options.status ?? 200, requestId);
    } catch (error) {
      return apiErrorResponse(error, requestId);
    }
  }
}

/** For the HTTP methods a path does not support: 405 in the API's error shape. */
export async function methodNotAllowed(request: Request): Promise<Response> {
  const requestId = randomUUID();
  return apiErrorResponse(
    new ApiError("method_not_allowed", `${request.method} is not allowed on this path.`),
    requestId,
  );
}

/** For paths no endpoint has. */
export async function routeNotFound(request: Request): Promise<Response> {
  const requestId = randomUUID();
  return apiErrorResponse(
    new ApiError("not_found", `No endpoint ${request.method} ${new URL(request.url).pathname}.`),
    requestId,
  );
}
