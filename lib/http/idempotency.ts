/**
 * `Idempotency-Key` on every POST, with the semantics payment APIs use (Stripe's): the first answer
 * to a key is kept for 24 hours and replayed, with `Idempotent-Replayed: true`, to every later
 * request with the same key and the same request (method, path with query, and body compared as
 * JSON, so key order and spacing do not matter).
 *
 * - The same key with another request: 422 `idempotency_key_reused` (nothing runs).
 * - The same key while its first request still runs: 409 `idempotency_key_in_use`; exactly one
 *   request executes (the claim is one INSERT … ON CONFLICT on the key's row).
 * - Keys belong to the caller: the API key, the staff member, or, on public endpoints (the hosted
 *   checkout), the path. One caller's key never meets another's.
 * - Requests refused before they run (authentication, permission, version, validation of path,
 *   query and body) store nothing: the client fixes the request and sends it again with the same
 *   key. So are refusals by the rate limits (the request did not run).
 * - 5xx answers are not kept either, and free the key: every operation here is one database
 *   transaction, so a 5xx means nothing was changed and the same request may safely run again
 *   (Stripe keeps them; a client of ours retries with the same key and gets the operation done
 *   once). 429 answers (the checkout's decline limits) are not kept for the same reason: retrying
 *   later with the same key must be able to succeed.
 * - A request that crashed mid-way (its process died) leaves its key in flight; after
 *   STALE_AFTER_MS the same request may take it again. That is far longer than any request runs.
 * - Expired keys are deleted by the hourly retention job (lib/worker/tasks.ts).
 *
 * Keys are 1-255 printable ASCII characters (a UUID is the usual choice). A POST without the header
 * costs nothing here.
 */
import { createHash, randomUUID } from "node:crypto";
import type pg from "pg";
import { pool } from "../db/connection.ts";
import { ApiError, invalidField } from "../errors.ts";
import type { AuthContext } from "./auth.ts";

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
export const STALE_AFTER_MS = 5 * 60_000;
const REPLAYED_HEADER = "Idempotent-Replayed";
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

type Db = Pick<pg.Pool, "query">;

/** The key of a POST request, validated; null when the request has none (or is not a POST). */
export function idempotencyKey(request: Request): string | null {
  if (request.method !== "POST") return null;
  const value = request.headers.get("idempotency-key");
  if (value === null) return null;
  if (value.trim() === "" || !KEY_PATTERN.test(value)) {
    throw invalidField(
      "Idempotency-Key",
      value.length > 255
        ? "must be at most 255 characters"
        : "must be 1 to 255 printable ASCII characters (a UUID, for example)",
    );
  }
  return value;
}

function scopeOf(auth: AuthContext, url: URL): string {
  if (auth.type === "api_key") return `apikey:${auth.apiKeyId}`;
  if (auth.type === "session") return `user:${auth.userId}`;
  return `public:${url.pathname}`;
}

/** JSON with object keys sorted, so that the same body sent with another key order matches. */
function canonicalJson(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, (_key, item) =>
      item && typeof item === "object" && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : item,
    );
  } catch {
    // Nesting too deep for the sorting walk: the body as sent.
    return JSON.stringify(value);
  }
}

function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method}\n${path}\n${canonicalJson(body)}`)
    .digest("hex");
}

export interface IdempotencyClaim {
  /** Keeps `response` as the key's answer (or frees the key, see above) and returns it to send. */
  finish(response: Response): Promise<Response>;
}

export type IdempotencyStart = { replay: Response } | { claim: IdempotencyClaim };

interface StoredKey {
  fingerprint: string;
  method: string;
  path: string;
  response_status: number | null;
  response_content_type: string | null;
  response_body: string | null;
}

/**
 * For a POST with an Idempotency-Key, after the request was authenticated and validated: claims the
 * key (then run the request and call `finish`), or answers the replay of its stored response, or
 * throws 409/422. Null when the request has no key.
 */
export async function startIdempotent(
  request: Request,
  auth: AuthContext,
  body: unknown,
  requestId: string,
  db: Db = pool(),
): Promise<IdempotencyStart | null> {
  const key = idempotencyKey(request);
  if (key === null) return null;
  const url = new URL(request.url);
  const scope = scopeOf(auth, url);
  const path = `${url.pathname}${url.search}`;
  const fingerprint = fingerprintOf(request.method, path, body);
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomUUID();
    const { rows: claimed } = await db.query(
      `INSERT INTO idempotency_keys AS k (scope, key, fingerprint, method, path, lock_token, locked_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now(), now() + $7 * interval '1 millisecond')
       ON CONFLICT (scope, key) DO UPDATE
         SET fingerprint = excluded.fingerprint, method = excluded.method, path = excluded.path,
             lock_token = excluded.lock_token, locked_at = now(), response_status = NULL,
             response_content_type = NULL, response_body = NULL, created_at = now(), expires_at = excluded.expires_at
       WHERE k.expires_at <= now()
          OR (k.response_status IS NULL AND k.fingerprint = excluded.fingerprint
              AND k.locked_at < now() - $8 * interval '1 millisecond')
       RETURNING 1`,
      [scope, key, fingerprint, request.method, path, token, IDEMPOTENCY_TTL_MS, STALE_AFTER_MS],
    );
    if (claimed.length > 0) return { claim: claimOf(db, scope, key, token) };
    const { rows } = await db.query<StoredKey>(
      `SELECT fingerprint, method, path, response_status, response_content_type, response_body
         FROM idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    const stored = rows[0];
    if (!stored) continue; // purged between the two statements: claim again
    if (stored.fingerprint !== fingerprint) {
      const same = stored.method === request.method && stored.path === path;
      throw new ApiError(
        "idempotency_key_reused",
        same
          ? "This Idempotency-Key was already used with a different request body. Use a new key for a new request."
          : `This Idempotency-Key was already used for ${stored.method} ${stored.path}. Use a new key for a new request.`,
      );
    }
    if (stored.response_status === null) {
      throw new ApiError(
        "idempotency_key_in_use",
        "A request with this Idempotency-Key is still being processed. Retry once it has finished to get its answer.",
      );
    }
    return {
      replay: new Response(stored.response_body, {
        status: stored.response_status,
        headers: {
          "content-type": stored.response_content_type ?? "application/json; charset=utf-8",
          "x-request-id": requestId,
          [REPLAYED_HEADER]: "true",
        },
      }),
    };
  }
  throw new ApiError("idempotency_key_in_use", "This Idempotency-Key is changing hands; retry the request.");
}

/** Whether an answer is kept for its key (see the top of this file). */
function keeps(status: number): boolean {
  return status < 500 && status !== 429;
}

function claimOf(db: Db, scope: string, key: string, token: string): IdempotencyClaim {
  return {
    async finish(response) {
      let body: string | null = null;
      const answer = () =>
        body === null
          ? response
          : new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      try {
        if (!keeps(response.status)) {
          await db.query("DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND lock_token = $3", [
            scope,
            key,
            token,
          ]);
          return response;
        }
        body = await response.text();
        await db.query(
          `UPDATE idempotency_keys
              SET response_status = $4, response_content_type = $5, response_body = $6, lock_token = NULL
            WHERE scope = $1 AND key = $2 AND lock_token = $3`,
          [scope, key, token, response.status, response.headers.get("content-type"), body],
        );
        return answer();
      } catch (error) {
        // The request ran and its answer goes out; its key stays in flight until STALE_AFTER_MS.
        console.error("[idempotency] the answer could not be stored for its key", error);
        return answer();
      }
    },
  };
}

/** Deletes expired keys (the hourly retention job). Returns how many. */
export async function purgeIdempotencyKeys(db: Db = pool()): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM idempotency_keys WHERE expires_at < now()");
  return rowCount ?? 0;
}
