import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { createInviteBody, listInvitesQuery } from "@/lib/schemas/team";
import { createInvite, listInvites } from "@/lib/services/team/invites";

export const GET = route({ permission: "user.read", query: listInvitesQuery }, async ({ input }) =>
  listOfJson(await listInvites(input.query)),
);

/** 201 with `url`, the one-time link, which is never shown again. */
export const POST = route({ permission: "user.write", body: createInviteBody, status: 201 }, ({ input, auth }) =>
  createInvite(input.body, auth.type === "session" ? auth.userId : null),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
