import { route } from "@/lib/http/route";
import { inviteParams } from "@/lib/schemas/team";
import { revokeInvite } from "@/lib/services/team/invites";

/** 204: the link stops working. */
export const DELETE = route(
  { summary: "Revoke an invitation (ours).", response: "no_content", permission: "user.write", params: inviteParams },
  async ({ input }) => {
    await revokeInvite(input.params.invite_id);
    return new Response(null, { status: 204 });
  },
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
} from "@/lib/http/route";
