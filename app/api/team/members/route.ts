import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { listMembersQuery } from "@/lib/schemas/team";
import { listMembers } from "@/lib/services/team/members";

export const GET = route({ permission: "user.read", query: listMembersQuery }, async ({ input }) =>
  listOfJson(await listMembers(input.query)),
);

// Members join through an invitation (POST /api/team/invites).
export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
