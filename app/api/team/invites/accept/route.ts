import { clientAddress } from "@/lib/http/client-address";
import { route } from "@/lib/http/route";
import { acceptedInvite, acceptInviteBody } from "@/lib/schemas/team";
import { acceptInvite } from "@/lib/services/team/invites";

/** Public: the invitation's token is the credential. 201 with the new member's email (to sign in). */
export const POST = route(
  {
    summary: "Accept an invitation: set a password and join (ours; the token is the credential).",
    response: acceptedInvite,
    permission: "public",
    body: acceptInviteBody,
    status: 201,
  },
  ({ input, request, requestId }) =>
    acceptInvite(input.body, {
      clientAddress: clientAddress(request.headers),
      userAgent: request.headers.get("user-agent"),
      requestId,
    }),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
