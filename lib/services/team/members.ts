/**
 * The team: staff logins (the `users` table) and their roles, changed by owners through the API.
 * Rules: the last owner can be neither demoted nor removed (the team would have nobody to manage
 * it), and nobody removes themselves (an owner leaves by having another owner remove them).
 * Owners' rows are locked first, so two concurrent demotions cannot both pass the last-owner check.
 */

import { isRole, rolePermissions, ungrantablePermissions } from "../../auth/permissions.ts";
import {
  type EntityTable,
  getJson,
  type JsonPage,
  listJson,
  Params,
  query,
  type RawJson,
  sqlTransaction,
  ts,
} from "../../db/sql.ts";
import { ApiError, notFound } from "../../errors.ts";
import type { OrderBy } from "../../schemas/list-query.ts";
import type { TeamMember, UpdateMemberInput } from "../../schemas/team.ts";

export const TEAM_MEMBER: EntityTable<TeamMember> = {
  table: "users",
  fields: [
    ["id", "t.id"],
    ["email", "t.email"],
    ["name", "t.name"],
    ["role", "t.role"],
    ["last_sign_in_at", ts("t.last_login_at")],
    ["created_at", ts("t.created_at")],
  ],
};

export async function listMembers(options: { after?: string; per_page: number; order_by: OrderBy }): Promise<JsonPage> {
  return listJson(TEAM_MEMBER, {
    filters: [],
    params: new Params(),
    orderBy: options.order_by,
    after: options.after,
    perPage: options.per_page,
  });
}

export async function getMember(id: string): Promise<RawJson<TeamMember>> {
  const json = await getJson(TEAM_MEMBER, "t.id = $1", [id]);
  if (!json) throw notFound(id);
  return json;
}

type Client = Parameters<Parameters<typeof sqlTransaction>[0]>[0];

/** Locks the owners' rows and the member's; the member's role, and how many owners there are. */
async function lockTeam(client: Client, id: string): Promise<{ role: string; owners: number }> {
  const owners = await query<{ id: string }>(
    `SELECT id FROM users WHERE role = 'owner' ORDER BY id FOR UPDATE`,
    [],
    client,
  );
  const [member] = await query<{ role: string }>(`SELECT role FROM users WHERE id = $1 FOR UPDATE`, [id], client);
  if (!member) throw notFound(id);
  return { role: member.role, owners: owners.length };
}

function lastOwner(action: string): ApiError {
  return new ApiError("conflict", `The last owner cannot be ${action}: make another member an owner first.`);
}

/**
 * A role is granted (by an invitation or a role change) only by a caller who can do all it can, and
 * a member is demoted or removed only by one who can do all their role can: as with API keys
 * (createApiKey), `user.write` on a narrower key is not a way up to owner, nor a way to push the
 * owners out. Staff with `user.write` are owners and hold everything; without `held` (the
 * operator's tools) anything goes.
 */
export function assertRoleGrantable(
  role: string,
  held: ReadonlySet<string> | undefined,
  what = `grant the ${role} role`,
): void {
  // A role no session can sign in with (not one of ROLES) carries no permissions to guard.
  if (!held || !isRole(role)) return;
  const missing = ungrantablePermissions(held, rolePermissions(role));
  if (missing.length === 0) return;
  const shown =
    missing.length > 5 ? `${missing.slice(0, 5).join(", ")} and ${missing.length - 5} more` : missing.join(", ");
  throw new ApiError(
    "forbidden",
    `You aren't permitted to ${what}: the ${role} role has permissions you do not have yourself (${shown}).`,
  );
}

export async function updateMemberRole(
  id: string,
  input: UpdateMemberInput,
  held?: ReadonlySet<string>,
): Promise<RawJson<TeamMember>> {
  assertRoleGrantable(input.role, held);
  return sqlTransaction(async (client) => {
    const { role, owners } = await lockTeam(client, id);
    if (role !== input.role) assertRoleGrantable(role, held, `change the role of a member with the ${role} role`);
    if (role === "owner" && input.role !== "owner" && owners <= 1) throw lastOwner("demoted");
    await query(`UPDATE users SET role = $2, updated_at = now() WHERE id = $1`, [id, input.role], client);
    const json = await getJson(TEAM_MEMBER, "t.id = $1", [id], client);
    if (!json) throw notFound(id);
    return json;
  });
}

export async function removeMember(
  id: string,
  actorUserId: string | null,
  held?: ReadonlySet<string>,
): Promise<RawJson<TeamMember>> {
  if (id === actorUserId) throw new ApiError("conflict", "You cannot remove yourself: another owner can.");
  return sqlTransaction(async (client) => {
    const { role, owners } = await lockTeam(client, id);
    assertRoleGrantable(role, held, `remove a member with the ${role} role`);
    if (role === "owner" && owners <= 1) throw lastOwner("removed");
    const json = await getJson(TEAM_MEMBER, "t.id = $1", [id], client);
    await query(`DELETE FROM users WHERE id = $1`, [id], client);
    if (!json) throw notFound(id);
    return json;
  });
}
