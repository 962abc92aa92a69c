import { randomBytes } from "node:crypto";
import { type Queryable, query } from "../db/sql.ts";

/** Reads a deployment setting, creating it with `initial()` the first time (race-safe). */
export async function getOrCreateSetting(key: string, initial: () => string): Promise<string> {
  const read = () => query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key]);
  const [existing] = await read();
  if (existing) return existing.value;
  await query("INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING", [key, initial()]);
  // Another process may have created it first: its value is the one kept.
  const [kept] = await read();
  if (!kept) throw new Error(`setting ${key} was neither found nor created`);
  return kept.value;
}

/** Sets `key` to `value` unless it is already set; true when this call set it (a one-time claim). */
export async function claimSetting(key: string, value: string): Promise<boolean> {
  const rows = await query(
    "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key",
    [key, value],
  );
  return rows.length > 0;
}

/** Sets `key` to `value`, creating or replacing it (with `client`: inside that transaction). */
export async function putSetting(key: string, value: string, client?: Queryable): Promise<void> {
  await query(
    `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [key, value],
    client,
  );
}

/** The secret that signs dashboard sessions: NEXTAUTH_SECRET, or one generated once and kept in the database. */
export async function sessionSecret(): Promise<string> {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  return getOrCreateSetting("nextauth_secret", () => randomBytes(32).toString("base64url"));
}
