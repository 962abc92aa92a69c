/** The Team page's and the Audit log page's data: hooks over /api/team/… and /api/audit-log. */
import type { AuditLogEntry } from "../schemas/audit-log.ts";
import type { TeamInvite, TeamMember } from "../schemas/team.ts";
import { api } from "./api.ts";
import { type EntityResponse, enc, type ListParams, useList, useSave } from "./hooks.ts";

export type { AuditLogEntry, TeamInvite, TeamMember };

export const teamKeys = {
  all: ["team"] as const,
  members: ["team", "members"] as const,
  invites: ["team", "invites"] as const,
  audit: ["audit-log"] as const,
};

/** The whole team on one page (teams are small; the API pages past 200). */
export function useMembers() {
  return useList<TeamMember>(teamKeys.members, "/team/members", { per_page: 200 });
}

export function useInvites() {
  return useList<TeamInvite>(teamKeys.invites, "/team/invites", { per_page: 200 });
}

export function useCreateInvite() {
  return useSave(
    async (body: { email: string; role: string }) =>
      (await api<EntityResponse<TeamInvite>>("/team/invites", { method: "POST", body })).data,
    () => [teamKeys.all, teamKeys.audit],
  );
}

export function useRevokeInvite() {
  return useSave(
    (id: string) => api<null>(`/team/invites/${enc(id)}`, { method: "DELETE" }),
    () => [teamKeys.all, teamKeys.audit],
  );
}

export function useChangeRole() {
  return useSave(
    async ({ id, role }: { id: string; role: string }) =>
      (await api<EntityResponse<TeamMember>>(`/team/members/${enc(id)}`, { method: "PATCH", body: { role } })).data,
    () => [teamKeys.all, teamKeys.audit],
  );
}

export function useRemoveMember() {
  return useSave(
    (id: string) => api<null>(`/team/members/${enc(id)}`, { method: "DELETE" }),
    () => [teamKeys.all, teamKeys.audit],
  );
}

export function useAuditLog(params: ListParams, enabled = true) {
  return useList<AuditLogEntry>(teamKeys.audit, "/audit-log", params, enabled);
}

/** Who created `entityId` through the API, per the audit log (null when unknown or not allowed). */
export function useCreator(entityId: string, action: string, enabled: boolean) {
  const list = useAuditLog({ entity_id: entityId, action, per_page: 1, order_by: "id[ASC]" }, enabled);
  return list.data?.data[0] ?? null;
}
