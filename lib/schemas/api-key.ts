import { z } from "zod";
import { isPermission } from "../auth/permissions.ts";
import { csv, dateTime, entityId, listQuery, maxText, requiredText } from "./common.ts";

export const API_KEY_STATUSES = ["active", "expired", "revoked"] as const;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The whole key on creation only; afterwards its masked form. */
  key: z.string(),
  status: z.enum(API_KEY_STATUSES),
  permissions: z.array(z.string()),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

const permissions = z
  .array(z.string().refine(isPermission, "is not a known permission"))
  .min(1, "must grant at least one permission")
  .refine((list) => new Set(list).size === list.length, "must not repeat a permission");

const expiresAt = dateTime
  .refine((value) => new Date(value).getTime() > Date.now(), "must be in the future")
  .nullable();

export const createApiKeyBody = z.strictObject({
  name: requiredText(150),
  description: maxText(500).nullable().optional(),
  permissions,
  expires_at: expiresAt.optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyBody>;

export const updateApiKeyBody = z.strictObject({
  name: requiredText(150).optional(),
  description: maxText(500).nullable().optional(),
  /** Revocation is final: only `revoked` may be sent. */
  status: z.literal("revoked", { error: "can only be set to revoked" }).optional(),
});
export type UpdateApiKeyInput = z.infer<typeof updateApiKeyBody>;

export const apiKeyParams = z.object({ api_key_id: entityId("apikey") });

export const listApiKeysQuery = z.object({
  ...listQuery(["id"]),
  status: csv(z.enum(API_KEY_STATUSES)).optional(),
});
export type ListApiKeysQuery = z.infer<typeof listApiKeysQuery>;
