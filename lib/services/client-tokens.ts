/**
 * Client-side tokens: the public credentials of the client-side library (public/js/billing.js).
 * A merchant publishes one in a web page; with it the page can preview prices and open checkouts
 * through the library's own endpoints (app/js-api), and nothing else: the API (/api/**) never
 * accepts one (lib/http/auth.ts reads only API keys and staff sessions).
 *
 * Decisions where the API family is silent:
 * - Format: `test_` (sandbox) or `live_` then 27 random lowercase hexadecimal characters (108
 *   bits), the length of the family's example `live_7d279f61a3499fed520f7cd8c08`. A token of the
 *   other environment, like an unknown or revoked one, gets 403 invalid_client_token.
 * - The token is stored as is (unique index) and returned on every read, as in the family: it is
 *   not a secret. Revoking is what stops a published token.
 * - PATCH takes `status` and, our extension, `name` and `description`. Revoking emits
 *   `client_token.revoked`; a change of name or description `client_token.updated`; a PATCH that
 *   changes nothing (`status: active` on an active token) emits nothing. A revoked token cannot be
 *   changed at all (409 conflict, as for a revoked API key): revocation is one way.
 */
import { randomBytes } from "node:crypto";
import { config } from "../config.ts";
import { CLIENT_TOKEN } from "../db/entities/client-token.ts";
import type { RawJson } from "../db/sql.ts";
import {
  getJson,
  insertJson,
  type JsonPage,
  listJson,
  Params,
  query,
  queryExactlyOne,
  sqlTransaction,
  updateJson,
} from "../db/sql.ts";
import { ApiError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type {
  ClientToken,
  CreateClientTokenInput,
  ListClientTokensQuery,
  UpdateClientTokenInput,
} from "../schemas/client-token.ts";

/** The prefix of this deployment's tokens: `test` in the sandbox, `live` in live. */
export function clientTokenPrefix(environment = config.environment): "test" | "live" {
  return environment === "live" ? "live" : "test";
}

/** Shape of a client-side token of either environment. */
export const CLIENT_TOKEN_PATTERN = /^(test|live)_[0-9a-f]{27}$/;

/** A new token value of this environment. */
export function newClientToken(environment = config.environment): string {
  return `${clientTokenPrefix(environment)}_${randomBytes(14).toString("hex").slice(0, 27)}`;
}

export async function createClientToken(input: CreateClientTokenInput): Promise<RawJson<ClientToken>> {
  return insertJson(
    CLIENT_TOKEN,
    {
      id: newId("ctkn"),
      token: newClientToken(),
      name: input.name,
      description: input.description ?? null,
    },
    "client_token.created",
  );
}

export async function getClientToken(id: string): Promise<RawJson<ClientToken>> {
  const token = await getJson(CLIENT_TOKEN, "t.id = $1", [id]);
  if (!token) throw notFound(id);
  return token;
}

/**
 * Revokes (status `revoked`) or renames a token. The row is locked first: of concurrent
 * revocations exactly one revokes (one event, one `revoked_at`); the others find it revoked and get
 * 409 conflict, as any later change does.
 */
export async function updateClientToken(id: string, input: UpdateClientTokenInput): Promise<RawJson<ClientToken>> {
  return sqlTransaction(async (client) => {
    const [current] = await query<{ status: string }>(
      "SELECT status FROM client_tokens WHERE id = $1 FOR UPDATE",
      [id],
      client,
    );
    if (!current) throw notFound(id);
    if (current.status === "revoked") {
      throw new ApiError(
        "conflict",
        `Client-side token ${id} is revoked; a revoked token cannot be changed or made active again. Create a new token instead.`,
      );
    }
    const revoking = input.status === "revoked";
    const renaming = input.name !== undefined || input.description !== undefined;
    if (!revoking && !renaming) return (await getJson(CLIENT_TOKEN, "t.id = $1", [id], client)) as RawJson<ClientToken>;
    // revoked_at and updated_at are the same instant: the database transaction's now(), exactly.
    const { now } = await queryExactlyOne<{ now: string }>("SELECT now()::text AS now", [], client);
    const updated = await updateJson(
      CLIENT_TOKEN,
      { sql: "t.id = $1", values: [id] },
      {
        name: input.name,
        description: input.description,
        ...(revoking ? { status: "revoked", revoked_at: now } : {}),
      },
      revoking ? "client_token.revoked" : "client_token.updated",
      client,
    );
    return updated as RawJson<ClientToken>;
  });
}

export function listClientTokens(q: ListClientTokensQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  return listJson(CLIENT_TOKEN, { filters, params, orderBy: q.order_by, after: q.after, perPage: q.per_page });
}

/**
 * The active token `token` names, or null (unknown, malformed, revoked, or of the other
 * environment). One indexed lookup, no cache: a revocation stops the token at once in every process.
 */
export async function findActiveClientToken(token: string): Promise<{ id: string } | null> {
  if (!CLIENT_TOKEN_PATTERN.test(token) || !token.startsWith(`${clientTokenPrefix()}_`)) return null;
  const [row] = await query<{ id: string }>("SELECT id FROM client_tokens WHERE token = $1 AND status = 'active'", [
    token,
  ]);
  return row ?? null;
}
