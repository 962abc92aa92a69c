/**
 * The Team endpoints (ours): staff members, their roles and invitations. Not client-safe (the
 * password rule comes from lib/auth/passwords.ts, which needs node:crypto): pages import types only.
 */
import { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "../auth/passwords.ts";
import { ROLES } from "../auth/permissions.ts";
import { email, entityId, listQuery } from "./common.ts";
import { perPageParam } from "./list-query.ts";

export { PASSWORD_MIN_LENGTH };
/** Longer passwords buy nothing and cost scrypt time. */
export const PASSWORD_MAX_LENGTH = 200;
/** An invitation link works this long. */
export const INVITE_LIFETIME_DAYS = 7;

export const role = z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` });

export const teamMember = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role,
  last_sign_in_at: z.string().nullable(),
  created_at: z.string(),
});
export type TeamMember = z.infer<typeof teamMember>;

export const teamInvite = z.object({
  id: z.string(),
  email: z.string(),
  role,
  status: z.enum(["pending", "accepted", "expired"]),
  expires_at: z.string(),
  created_at: z.string(),
  /** The one-time link, only in the answer to its creation. */
  url: z.string().optional(),
});
export type TeamInvite = z.infer<typeof teamInvite>;

/** POST /team/invites/accept: the new member (to sign in with). */
export const acceptedInvite = z.object({ id: z.string(), email: z.string(), role: z.string() });

export const memberParams = z.object({ user_id: entityId("usr") });

/** Emails are kept as the CLI keeps them: trimmed, lower case (sign-in compares them so). */
export const createInviteBody = z.strictObject({ email: email.transform((v) => v.trim().toLowerCase()), role });
export type CreateInviteInput = z.infer<typeof createInviteBody>;

export const updateMemberBody = z.strictObject({ role });
export type UpdateMemberInput = z.infer<typeof updateMemberBody>;

/** An invitation token: 43 base64url characters (32 random bytes). */
export const inviteToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be an invitation token");

export const acceptInviteBody = z.strictObject({
  token: inviteToken,
  password: z
    .string({ error: "must be a string" })
    .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
  name: z.string().trim().max(200, "must be at most 200 characters").optional(),
});
export type AcceptInviteInput = z.infer<typeof acceptInviteBody>;

export const listMembersQuery = z.object(listQuery(["id"] as const));
export const listInvitesQuery = z.object({ after: z.string().max(200).optional(), per_page: perPageParam });
export const inviteParams = z.object({ invite_id: entityId("usrinv") });
