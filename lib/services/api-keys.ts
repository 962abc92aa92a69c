/**
 * API keys: created (shown whole once), read, renamed, revoked, listed; and what authentication
 * needs of a key on every request (lib/http/auth.ts). Keys go the data path of every entity:
 * SQL through lib/db/sql.ts, their JSON built by PostgreSQL from API_KEY, the event written in the
 * statement or transaction of the change.
 */
import { generateApiKey } from "../auth/api-key-format.ts";
import { expandPermissions, ungrantablePermissions } from "../auth/permissions.ts";
import { config } from "../config.ts";
import { API_KEY, API_KEY_STATUS } from "../db/entities/api-key.ts";
import {
  getJson,
  insertJson,
  type JsonPage,
  listJson,
  Params,
  query,
  type RawJson,
  sqlTransaction,
  updateJson,
} from "../db/sql.ts";
import { ApiError, notFound } from "../errors.ts";
import type { ApiKey, CreateApiKeyInput, ListApiKeysQuery, UpdateApiKeyInput } from "../schemas/api-key.ts";

/**
 * Creates a key; the returned `key` holds the whole value, which is never shown again (the event,
 * like every later read, has the masked form). `held` is what the caller may do (its key's or its
 * role's permissions, expanded): it can grant nothing beyond that. Without `held` (the operator's
 * CLI, first start, tests) anything can be granted.
 *
 * A grant beyond the caller's own is 403 forbidden, not invalid_field: the permission names are
 * valid and another caller could send the same body; what is missing is the caller's authority,
 * which is what `forbidden` means everywhere else, and its detail names the permissions lacked.
 */
export async function createApiKey(
  input: Pick<CreateApiKeyInput, "name" | "permissions"> & Partial<CreateApiKeyInput>,
  createdBy?: string,
  held?: ReadonlySet<string>,
): Promise<ApiKey> {
  if (held) {
    const missing = ungrantablePermissions(held, input.permissions);
    if (missing.length > 0) {
      throw new ApiError(
        "forbidden",
        `You aren't permitted to grant permissions you do not have yourself: ${missing.join(", ")}.`,
      );
    }
  }
  const { id, key, hash } = generateApiKey(config.environment);
  const created = await insertJson(
    API_KEY,
    {
      id,
      name: input.name,
      description: input.description ?? null,
      environment: config.environment,
      permissions: input.permissions,
      secret_hash: hash,
      last_four: key.slice(-4),
      expires_at: input.expires_at ?? null,
      created_by: createdBy ?? null,
    },
    "api_key.created",
  );
  return { ...created.parse(), key };
}

export async function getApiKey(id: string): Promise<RawJson<ApiKey>> {
  const apiKey = await getJson(API_KEY, "t.id = $1", [id]);
  if (!apiKey) throw notFound(id);
  return apiKey;
}

/**
 * Renames or revokes a key. The row is locked first, as every state change does: of concurrent
 * revocations exactly one revokes (one `api_key.revoked` event, one `revoked_at`) and the others
 * find the key revoked and get 409 conflict, as a revocation after it does.
 */
export async function updateApiKey(id: string, input: UpdateApiKeyInput): Promise<RawJson<ApiKey>> {
  const updated = await sqlTransaction(async (client) => {
    // `now`: the transaction's now(), so revoked_at and updated_at are the same instant exactly.
    const [current] = await query<{ status: string; now: string }>(
      "SELECT status, now()::text AS now FROM api_keys WHERE id = $1 FOR UPDATE",
      [id],
      client,
    );
    if (!current) throw notFound(id);
    if (current.status === "revoked") {
      throw new ApiError("conflict", `API key ${id} is revoked; a revoked key cannot be changed.`);
    }
    const revoking = input.status === "revoked";
    return updateJson(
      API_KEY,
      { sql: "t.id = $1", values: [id] },
      {
        name: input.name,
        description: input.description,
        ...(revoking ? { status: "revoked", revoked_at: current.now } : {}),
      },
      revoking ? "api_key.revoked" : "api_key.updated",
      client,
    );
  });
  forgetApiKey(id);
  return updated as RawJson<ApiKey>;
}

export async function revokeApiKey(id: string): Promise<ApiKey> {
  return (await updateApiKey(id, { status: "revoked" })).parse();
}

export function listApiKeys(q: ListApiKeysQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  // `status` as the API reports it (expired is computed), so a key is listed under the status it shows.
  if (q.status) filters.push(params.oneOf(`(${API_KEY_STATUS})`, q.status));
  return listJson(API_KEY, { filters, params, orderBy: q.order_by, after: q.after, perPage: q.per_page });
}

/** What authenticating a request with a key needs of its row. */
export interface ApiKeyCredentials {
  secretHash: string;
  permissions: Set<string>;
  status: string;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  fetchedAt: number;
}

/**
 * Keys are cached for a few seconds per process: authentication then costs no query on the hot
 * path, and one primary-key lookup when the cache misses. Revoking a key through this process
 * drops it at once (forgetApiKey); another process sees a revocation within CACHE_MS.
 */
const CACHE_MS = 5_000;
const LAST_USED_EVERY_MS = 60_000;
const credentialsCache = new Map<string, ApiKeyCredentials>();

export function forgetApiKey(id: string): void {
  credentialsCache.delete(id);
}

/** The key `id`'s credentials (briefly cached), or null when no key has that ID. */
export async function apiKeyCredentials(id: string): Promise<ApiKeyCredentials | null> {
  const cached = credentialsCache.get(id);
  if (cached && Date.now() - cached.fetchedAt < CACHE_MS) return cached;
  const [row] = await query<{
    secret_hash: string;
    permissions: string[] | null;
    status: string;
    expires_at: Date | null;
    last_used_at: Date | null;
  }>("SELECT secret_hash, permissions, status, expires_at, last_used_at FROM api_keys WHERE id = $1", [id]);
  if (!row) {
    credentialsCache.delete(id);
    return null;
  }
  const entry: ApiKeyCredentials = {
    secretHash: row.secret_hash,
    permissions: expandPermissions(row.permissions ?? []),
    status: row.status,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    fetchedAt: Date.now(),
  };
  credentialsCache.set(id, entry);
  return entry;
}

/**
 * Records that the key was used: at most once a minute per key and process, off the request's path
 * (a lost update of this timestamp costs nothing). updated_at moves with last_used_at, as it always
 * has for keys.
 */
export function markApiKeyUsed(id: string, credentials: ApiKeyCredentials): void {
  const now = new Date();
  if (credentials.lastUsedAt && now.getTime() - credentials.lastUsedAt.getTime() < LAST_USED_EVERY_MS) return;
  credentials.lastUsedAt = now;
  query("UPDATE api_keys SET last_used_at = now(), updated_at = now() WHERE id = $1", [id]).catch(() => {});
}
