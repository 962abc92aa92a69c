import { randomBytes } from "node:crypto";
import { db } from "../db.ts";

/** Reads a deployment setting, creating it with `initial()` the first time (race-safe). */
export async function getOrCreateSetting(key: string, initial: () => string): Promise<string> {
  const existing = await db().setting.findUnique({ where: { key } });
  if (existing) return existing.value;
  await db().setting.createMany({ data: [{ key, value: initial() }], skipDuplicates: true });
  return (await db().setting.findUniqueOrThrow({ where: { key } })).value;
}

/** The secret that signs dashboard sessions: NEXTAUTH_SECRET, or one generated once and kept in the database. */
export async function sessionSecret(): Promise<string> {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  return getOrCreateSetting("nextauth_secret", () => randomBytes(32).toString("base64url"));
}
