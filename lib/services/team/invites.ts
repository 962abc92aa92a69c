/**
 * Invitations to the team: an owner invites an email with a role and gets a one-time link
 * (`/invite/<token>`), shown once. Only the token's SHA-256 is stored; the link works for
 * INVITE_LIFETIME_DAYS and once. Accepting it sets the new member's password and creates the login.
 * Inviting an email again replaces its pending invitation (the older link stops working).
 *
 * The link is also emailed to the invitee (template `team_invite`), written and queued in the
 * invitation's transaction through the email outbox: sent through SMTP, or kept in the Emails log
 * without it. The log never shows the token (lib/services/emails/outbox.ts, SECRET_LINK): without
 * SMTP the owner copies the link from the answer, as before.
 */
import { createHash, randomBytes } from "node:crypto";
import { hashPassword } from "../../auth/passwords.ts";
import { ROLE_HELP } from "../../auth/permissions.ts";
import { config } from "../../config.ts";
import {
  type EntityTable,
  type JsonPage,
  listJson,
  Params,
  query,
  queryExactlyOne,
  type RawJson,
  sqlTransaction,
  ts,
} from "../../db/sql.ts";
import { documentDate } from "../../documents/print-format.ts";
import { ApiError, notFound } from "../../errors.ts";
import { newId } from "../../ids.ts";
import { RawJson as Json } from "../../json.ts";
import {
  type AcceptInviteInput,
  type CreateInviteInput,
  INVITE_LIFETIME_DAYS,
  type TeamInvite,
} from "../../schemas/team.ts";
import { absoluteLogoUrl, getAccountSettings } from "../account-settings.ts";
import { queueDelivery, recordEmails } from "../emails/outbox.ts";
import { teamInviteEmail } from "../emails/templates.ts";
import { recordAudit } from "./audit-log.ts";
import { assertRoleGrantable } from "./members.ts";

/** What each role may do, in the invitation email's words (the Team page says the same). */
export const TEAM_INVITE: EntityTable<TeamInvite> = {
  table: "user_invites",
  fields: [
    ["id", "t.id"],
    ["email", "t.email"],
    ["role", "t.role"],
    [
      "status",
      "CASE WHEN t.accepted_at IS NOT NULL THEN 'accepted' WHEN t.expires_at <= now() THEN 'expired' ELSE 'pending' END",
    ],
    ["expires_at", ts("t.expires_at")],
    ["created_at", ts("t.created_at")],
  ],
};

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function inviteUrl(token: string): string {
  return `${config.publicUrl}/invite/${token}`;
}

/** Invitations not yet accepted (pending or expired), newest first. */
export async function listInvites(options: { after?: string; per_page: number }): Promise<JsonPage> {
  return listJson(TEAM_INVITE, {
    filters: ["t.accepted_at IS NULL"],
    params: new Params(),
    orderBy: { field: "id", direction: "desc" },
    after: options.after,
    perPage: options.per_page,
  });
}

export async function createInvite(
  input: CreateInviteInput,
  invitedBy: string | null,
  held?: ReadonlySet<string>,
): Promise<RawJson<TeamInvite>> {
  assertRoleGrantable(input.role, held);
  const token = randomBytes(32).toString("base64url");
  const id = newId("usrinv");
  const settings = await getAccountSettings();
  return sqlTransaction(async (client) => {
    const taken = await query(`SELECT 1 FROM users WHERE email = $1`, [input.email], client);
    if (taken.length > 0) {
      throw new ApiError("conflict", `${input.email} is already a member of the team.`, {
        errors: [{ field: "email", message: "is already a member of the team" }],
      });
    }
    await query(`DELETE FROM user_invites WHERE email = $1 AND accepted_at IS NULL`, [input.email], client);
    await query(
      `INSERT INTO user_invites (id, email, role, token_hash, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 day')`,
      [id, input.email, input.role, hashInviteToken(token), invitedBy, INVITE_LIFETIME_DAYS],
      client,
    );
    const row = await queryExactlyOne<{ j: string; expires_at: Date; inviter: string | null }>(
      `SELECT (SELECT row_to_json(r) FROM (SELECT ${TEAM_INVITE.fields.map(([n, e]) => `${e} AS "${n}"`).join(", ")},
              $2::text AS url) r)::text AS j, t.expires_at,
              (SELECT coalesce(nullif(trim(u.name), ''), u.email) FROM users u WHERE u.id = t.invited_by) AS inviter
         FROM user_invites t WHERE t.id = $1`,
      [id, inviteUrl(token)],
      client,
    );
    const emails = await recordEmails(
      [
        {
          template: "team_invite",
          to: input.email,
          eventId: null,
          eventType: null,
          entityId: id,
          content: teamInviteEmail({
            business: settings.merchant_name,
            inviter: row.inviter,
            role: input.role,
            roleHelp: ROLE_HELP[input.role],
            link: inviteUrl(token),
            expiresOn: documentDate(row.expires_at, settings.timezone),
            days: INVITE_LIFETIME_DAYS,
            logoUrl: absoluteLogoUrl(settings.logo_url),
          }),
        },
      ],
      client,
    );
    await queueDelivery(client, emails);
    return new Json(row.j) as RawJson<TeamInvite>;
  });
}

export async function revokeInvite(id: string): Promise<void> {
  const rows = await query(`DELETE FROM user_invites WHERE id = $1 AND accepted_at IS NULL RETURNING 1`, [id]);
  if (rows.length === 0) throw notFound(id);
}

/** What the invitation page shows before the password is set; the same refusals as accepting. */
export async function describeInvite(token: string): Promise<{ email: string; role: string }> {
  const [row] = await query<{ email: string; role: string; accepted: boolean; expired: boolean }>(
    `SELECT email, role, accepted_at IS NOT NULL AS accepted, expires_at <= now() AS expired
     FROM user_invites WHERE token_hash = $1`,
    [hashInviteToken(token)],
  );
  refuse(row);
  return { email: row.email, role: row.role };
}

function refuse(row: { accepted: boolean; expired: boolean } | undefined): asserts row {
  if (!row) throw new ApiError("not_found", "This invitation link is not valid. Ask an owner for a new one.");
  if (row.accepted) throw new ApiError("not_found", "This invitation link has already been used. Sign in instead.");
  if (row.expired) throw new ApiError("not_found", "This invitation link has expired. Ask an owner for a new one.");
}

/** Creates the login the invitation was for; the link is then used up. */
export async function acceptInvite(
  input: AcceptInviteInput,
  from: { clientAddress?: string; userAgent?: string | null; requestId?: string } = {},
): Promise<{ id: string; email: string; role: string }> {
  // Hashed before the transaction: scrypt takes about 100 ms, no row should be locked that long.
  const passwordHash = await hashPassword(input.password);
  const userId = newId("usr");
  const member = await sqlTransaction(async (client) => {
    const [row] = await query<{ id: string; email: string; role: string; accepted: boolean; expired: boolean }>(
      `SELECT id, email, role, accepted_at IS NOT NULL AS accepted, expires_at <= now() AS expired
       FROM user_invites WHERE token_hash = $1 FOR UPDATE`,
      [hashInviteToken(input.token)],
      client,
    );
    refuse(row);
    const taken = await query(`SELECT 1 FROM users WHERE email = $1`, [row.email], client);
    if (taken.length > 0) throw new ApiError("conflict", `${row.email} already has a login. Sign in instead.`);
    await query(
      `INSERT INTO users (id, email, name, password_hash, role) VALUES ($1, $2, $3, $4, $5)`,
      [userId, row.email, input.name?.trim() || null, passwordHash, row.role],
      client,
    );
    await query(`UPDATE user_invites SET accepted_at = now() WHERE id = $1`, [row.id], client);
    return { id: userId, email: row.email, role: row.role, inviteId: row.id, name: input.name?.trim() || null };
  });
  await recordAudit({
    actorType: "user",
    actorId: member.id,
    actorLabel: member.email,
    action: "POST /api/team/invites/accept",
    entityId: member.inviteId,
    status: 201,
    detail: { email: member.email, role: member.role, ...(member.name ? { name: member.name } : {}) },
    requestId: from.requestId,
    clientAddress: from.clientAddress,
    userAgent: from.userAgent,
  });
  return { id: member.id, email: member.email, role: member.role };
}
