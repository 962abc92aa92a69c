import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { createInviteBody, listInvitesQuery, teamInvite } from "@/lib/schemas/team";
import { createInvite, listInvites } from "@/lib/services/team/invites";

export const GET = route(
  {
    summary: "List invitations (ours).",
    response: paginated(teamInvite),
    permission: "user.read",
    query: listInvitesQuery,
  },
  async ({ input }) => listOfJson(await listInvites(input.query)),
);

/** 201 with `url`, the one-time link, which is never shown again. */
export const POST = route(
  {
    summary: "Invite a teammate (ours): a one-time link, shown only in this answer.",
    response: teamInvite,
    permission: "user.write",
    body: createInviteBody,
    status: 201,
  },
  ({ input, auth }) => createInvite(input.body, auth.type === "session" ? auth.userId : null, auth.permissions),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
