/**
 * First start on an empty database: an owner login and a sandbox API key with every permission,
 * printed once. A marker row makes sure this happens only once, even with several processes.
 */
import { randomBytes } from "node:crypto";
import { PERMISSIONS } from "../auth/permissions.ts";
import { createApiKey } from "./api-keys.ts";
import { claimSetting } from "./settings.ts";
import { anyUserExists, createUser } from "./users.ts";

export interface FirstStart {
  email: string;
  password: string;
  apiKey: string;
}

export async function bootstrapIfEmpty(): Promise<FirstStart | null> {
  if (await anyUserExists()) return null;
  if (!(await claimSetting("bootstrapped_at", new Date().toISOString()))) return null;
  const email = (process.env.BILLING_OWNER_EMAIL ?? "owner@example.com").toLowerCase();
  const password = process.env.BILLING_OWNER_PASSWORD ?? randomBytes(12).toString("base64url");
  await createUser({ email, password, role: "owner", name: "Owner" });
  const key = await createApiKey({
    name: "First sandbox key",
    description: "Created on first start",
    permissions: [...PERMISSIONS],
  });
  return { email, password, apiKey: key.key };
}
