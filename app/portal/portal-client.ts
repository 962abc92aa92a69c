/**
 * The portal pages' client for the portal's own endpoints (app/portal/api/**): the portal cookie
 * authenticates, errors arrive in the API's error shape (the dashboard's ApiClientError).
 */
import { ApiClientError } from "@/lib/client/api";

export async function portalApi<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(`/portal/api${path}`, {
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
  return payload?.data as T;
}
