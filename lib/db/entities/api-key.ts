/**
 * The API key's API shape (spec: API key), in the spec's field order: the one serializer of every
 * read and write of a key and of its events. The whole key is never stored (only its hash): after
 * creation `key` is its masked form, `svc_apikey_<sdbx|live>_…<last four>`. `status` is `expired`
 * from `expires_at` on, read at query time, so no job has to flip it.
 */
import { ENV_CODE } from "../../auth/api-key-format.ts";
import type { ApiKey } from "../../schemas/api-key.ts";
import { type EntityTable, sqlText, ts } from "../sql.ts";

/** `status` over the row `t`: revoked, else expired once `expires_at` has passed, else active. */
export const API_KEY_STATUS = `CASE WHEN t.status = 'revoked' THEN 'revoked'
  WHEN t.expires_at IS NOT NULL AND t.expires_at <= now() THEN 'expired' ELSE 'active' END`;

const MASKED_KEY = `${sqlText("svc_apikey_")}
  || CASE WHEN t.environment = 'live' THEN ${sqlText(ENV_CODE.live)} ELSE ${sqlText(ENV_CODE.sandbox)} END
  || ${sqlText("_…")} || t.last_four`;

export const API_KEY: EntityTable<ApiKey> = {
  table: "api_keys",
  fields: [
    ["id", "t.id"],
    ["name", "t.name"],
    ["description", "t.description"],
    ["key", MASKED_KEY],
    ["status", API_KEY_STATUS],
    ["permissions", "t.permissions"],
    ["expires_at", ts("t.expires_at")],
    ["last_used_at", ts("t.last_used_at")],
    ["revoked_at", ts("t.revoked_at")],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};
