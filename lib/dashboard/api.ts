/**
 * The dashboard's API client: it calls the same /api routes as any integration, with the staff
 * session cookie instead of an API key. Errors arrive in the API's error shape.
 */
import { ID_PREFIX } from "../id-prefixes.ts";

export interface FieldError {
  field: string;
  message: string;
}

/** "Discount group" for `discountGroup`, keyed by ID prefix ("dsg"). */
const NOUN_BY_PREFIX = new Map<string, string>(
  Object.entries(ID_PREFIX).map(([entity, prefix]) => [
    prefix,
    entity.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`).replace(/^api key$/, "API key"),
  ]),
);

/**
 * The API's error text in a merchant's words: "Entity ctm_… not found" becomes "No customer with
 * ID ctm_…", a missing permission says what the role cannot do. Anything else is kept.
 */
export function humaneDetail(code: string, detail: string): string {
  const missing = /^Entity (([a-z]+)_[a-z0-9]+) not found$/.exec(detail);
  if (code === "not_found" && missing) {
    const noun = NOUN_BY_PREFIX.get(missing[2]);
    if (noun) return `No ${noun} with ID ${missing[1]}. It may have been deleted, or the link is wrong.`;
  }
  const permission = /it needs the ([a-z_]+)\.(read|write) permission/.exec(detail);
  if (code === "forbidden" && permission) {
    const thing = permission[1].replace(/_/g, " ");
    const verb = permission[2] === "write" ? "change" : "see";
    return `Your role cannot ${verb} ${thing} data (it needs the ${permission[1]}.${permission[2]} permission). Ask an owner for access.`;
  }
  return detail;
}

export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly errors: FieldError[] = [],
    readonly requestId?: string,
  ) {
    super(detail);
  }

  /** Field errors keyed by field name, for showing beside form inputs. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.errors) out[e.field] ??= e.message;
    return out;
  }
}

export interface Pagination {
  per_page: number;
  next: string;
  has_more: boolean;
  estimated_total: number;
}

export interface ListResponse<T> {
  data: T[];
  meta: { request_id: string; pagination: Pagination };
}

/** A JSON request to this server's API (`/api…`) or another endpoint speaking its error shape (the portal's). */
export async function api<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
  base: "/api" | "/portal/api" = "/api",
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? "GET",
    headers: init.body === undefined ? undefined : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  const payload = await response.json().catch(() => null);
  if (!response.ok) {
    const error = payload?.error;
    throw new ApiClientError(
      response.status,
      error?.code ?? "internal_error",
      humaneDetail(error?.code ?? "", error?.detail ?? `Request failed with status ${response.status}`),
      error?.errors ?? [],
      payload?.meta?.request_id,
    );
  }
  return payload as T;
}

/** Builds a query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}
