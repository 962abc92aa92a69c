import { route } from "@/lib/http/route";
import { memberParams, teamMember, updateMemberBody } from "@/lib/schemas/team";
import { getMember, removeMember, updateMemberRole } from "@/lib/services/team/members";

export const GET = route(
  { summary: "Get a staff login (ours).", response: teamMember, permission: "user.read", params: memberParams },
  ({ input }) => getMember(input.params.user_id),
);

export const PATCH = route(
  {
    summary: "Change a staff member's role (ours; never the last owner).",
    response: teamMember,
    permission: "user.write",
    params: memberParams,
    body: updateMemberBody,
  },
  ({ input, auth }) => updateMemberRole(input.params.user_id, input.body, auth.permissions),
);

/** 204: the login is gone; its sessions are refused from the next request on. */
export const DELETE = route(
  {
    summary: "Remove a staff login (ours; not yourself, not the last owner).",
    response: "no_content",
    permission: "user.write",
    params: memberParams,
  },
  async ({ input, auth }) => {
    await removeMember(input.params.user_id, auth.type === "session" ? auth.userId : null, auth.permissions);
    return new Response(null, { status: 204 });
  },
);

export { methodNotAllowed as POST, methodNotAllowed as PUT } from "@/lib/http/route";
