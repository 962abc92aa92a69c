import { z } from "zod";
import { csv, entityId, listQuery, maxText, requiredText } from "./common.ts";

export const CLIENT_TOKEN_STATUSES = ["active", "revoked"] as const;
export type ClientTokenStatus = (typeof CLIENT_TOKEN_STATUSES)[number];

/**
 * A client-side token (spec: Client-side token), fields in the spec's order. `token` is returned on
 * every read, as in the API family: it is meant to be published in the merchant's web pages.
 */
export const clientTokenSchema = z.object({
  id: z.string(),
  token: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(CLIENT_TOKEN_STATUSES),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ClientToken = z.infer<typeof clientTokenSchema>;

/**
 * Longest description taken. The API family documents no limit; 500, as for API keys and
 * notification destinations, keeps a description a description.
 */
export const CLIENT_TOKEN_DESCRIPTION_MAX = 500;

export const createClientTokenBody = z.strictObject({
  name: requiredText(150),
  description: maxText(CLIENT_TOKEN_DESCRIPTION_MAX).nullable().optional(),
});
export type CreateClientTokenInput = z.infer<typeof createClientTokenBody>;

/**
 * PATCH: `status` as in the API family (`revoked` revokes; `active` changes nothing on an active
 * token, and a revoked one cannot come back: lib/services/client-tokens.ts), and, our extension,
 * `name` and `description`. At least one field.
 */
export const updateClientTokenBody = z
  .strictObject({
    status: z.enum(CLIENT_TOKEN_STATUSES, { error: "must be active or revoked" }).optional(),
    name: requiredText(150).optional(),
    description: maxText(CLIENT_TOKEN_DESCRIPTION_MAX).nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: "must be sent: the request changes nothing without it",
    path: ["status"],
  });
export type UpdateClientTokenInput = z.infer<typeof updateClientTokenBody>;

export const clientTokenParams = z.object({ client_token_id: entityId("ctkn") });

export const listClientTokensQuery = z.object({
  ...listQuery(["id"]),
  status: csv(z.enum(CLIENT_TOKEN_STATUSES, { error: "must be active or revoked" })).optional(),
});
export type ListClientTokensQuery = z.infer<typeof listClientTokensQuery>;
