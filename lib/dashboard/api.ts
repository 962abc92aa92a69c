/**
 * The dashboard's API client: it calls the same /api routes as any integration, with the staff
 * session cookie instead of an API key. Errors arrive in the API's error shape, their texts already in a
 * merchant's words (lib/errors.ts `notFound`, lib/http/auth.ts `requirePermission`).
 */
export interface FieldError {
  field: string;
  message: string;
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
      error?.detail ?? `Request failed with status ${response.status}`,
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
