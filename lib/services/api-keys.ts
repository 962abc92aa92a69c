import { generateApiKey } from "../auth/api-key-format.ts";
import { ungrantablePermissions } from "../auth/permissions.ts";
import { config } from "../config.ts";
import { db, transaction } from "../db.ts";
import { ApiError, notFound } from "../errors.ts";
import { emit } from "../events/outbox.ts";
import { rfc3339 } from "../format.ts";
import type { ApiKey as ApiKeyRow } from "../generated/prisma/client.ts";
import { forgetApiKey } from "../http/auth.ts";
import type { Page } from "../http/pagination.ts";
import type { ApiKey, CreateApiKeyInput, ListApiKeysQuery, UpdateApiKeyInput } from "../schemas/api-key.ts";
import { paginate } from "./pagination.ts";

function status(row: ApiKeyRow, now = Date.now()): ApiKey["status"] {
  if (row.status === "revoked") return "revoked";
  if (row.expiresAt && row.expiresAt.getTime() <= now) return "expired";
  return "active";
}

export function serializeApiKey(row: ApiKeyRow, key?: string): ApiKey {
  const env = row.environment === "live" ? "live" : "sdbx";
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    key: key ?? `svc_apikey_${env}_…${row.lastFour}`,
    status: status(row),
    permissions: row.permissions,
    expires_at: rfc3339(row.expiresAt),
    last_used_at: rfc3339(row.lastUsedAt),
    revoked_at: rfc3339(row.revokedAt),
    created_at: rfc3339(row.createdAt),
    updated_at: rfc3339(row.updatedAt),
  };
}

/**
 * Creates a key; the returned `key` holds the whole value, which is never shown again. `held` is
 * what the caller may do (its key's or its role's permissions, expanded): it can grant nothing
 * beyond that. Without `held` (the operator's CLI, first start, tests) anything can be granted.
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
  return transaction(async (tx) => {
    const row = await tx.apiKey.create({
      data: {
        id,
        name: input.name,
        description: input.description ?? null,
        environment: config.environment,
        permissions: input.permissions,
        secretHash: hash,
        lastFour: key.slice(-4),
        expiresAt: input.expires_at ? new Date(input.expires_at) : null,
        createdBy: createdBy ?? null,
      },
    });
    const apiKey = serializeApiKey(row);
    await emit(tx, "api_key.created", apiKey);
    return { ...apiKey, key };
  });
}

export async function getApiKey(id: string): Promise<ApiKeyRow> {
  const row = await db().apiKey.findUnique({ where: { id } });
  if (!row) throw notFound(id);
  return row;
}

/**
 * Renames or revokes a key. The row is locked first, as every state change does: of concurrent
 * revocations exactly one revokes (one `api_key.revoked` event, one `revoked_at`) and the others
 * find the key revoked and get 409 conflict, as a revocation after it does.
 */
export async function updateApiKey(id: string, input: UpdateApiKeyInput): Promise<ApiKey> {
  const result = await transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM api_keys WHERE id = ${id} FOR UPDATE`;
    const current = await tx.apiKey.findUnique({ where: { id } });
    if (!current) throw notFound(id);
    if (current.status === "revoked") {
      throw new ApiError("conflict", `API key ${id} is revoked; a revoked key cannot be changed.`);
    }
    const revoking = input.status === "revoked";
    const row = await tx.apiKey.update({
      where: { id },
      data: {
        name: input.name,
        description: input.description,
        ...(revoking ? { status: "revoked", revokedAt: new Date() } : {}),
      },
    });
    const apiKey = serializeApiKey(row);
    await emit(tx, revoking ? "api_key.revoked" : "api_key.updated", apiKey);
    return apiKey;
  });
  forgetApiKey(id);
  return result;
}

export function revokeApiKey(id: string): Promise<ApiKey> {
  return updateApiKey(id, { status: "revoked" });
}

export function listApiKeys(query: ListApiKeysQuery): Promise<Page<ApiKeyRow>> {
  const where: Record<string, unknown> = {};
  if (query.status) {
    const now = new Date();
    where.OR = query.status.map((s) => {
      if (s === "revoked") return { status: "revoked" };
      if (s === "expired") return { status: "active", expiresAt: { lte: now } };
      return { status: "active", OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
    });
  }
  return paginate(db().apiKey as never, {
    table: "api_keys",
    where,
    after: query.after,
    perPage: query.per_page,
    orderBy: query.order_by,
  });
}
