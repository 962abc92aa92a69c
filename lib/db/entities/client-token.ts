import type { ClientToken } from "../../schemas/client-token.ts";
import { type EntityTable, ts } from "../sql.ts";

/** The client-side token's API shape (spec: Client-side token). */
export const CLIENT_TOKEN: EntityTable<ClientToken> = {
  table: "client_tokens",
  fields: [
    ["id", "t.id"],
    ["token", "t.token"],
    ["name", "t.name"],
    ["description", "t.description"],
    ["status", "t.status"],
    ["revoked_at", ts("t.revoked_at")],
    ["created_at", ts("t.created_at")],
    ["updated_at", ts("t.updated_at")],
  ],
};
