/**
 * The portal pages' client for the portal's own endpoints (app/portal/api/**): the portal cookie
 * authenticates, errors arrive in the API's error shape (the dashboard's ApiClientError).
 */
import { api } from "@/lib/dashboard/api";

export async function portalApi<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  return (await api<{ data: T } | null>(path, init, "/portal/api"))?.data as T;
}
