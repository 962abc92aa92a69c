import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { listMembersQuery, teamMember } from "@/lib/schemas/team";
import { listMembers } from "@/lib/services/team/members";

export const GET = route(
  {
    summary: "List the staff logins (ours).",
    response: paginated(teamMember),
    permission: "user.read",
    query: listMembersQuery,
  },
  async ({ input }) => listOfJson(await listMembers(input.query)),
);

// Members join through an invitation (POST /api/team/invites).
export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
