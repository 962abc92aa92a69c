import { route } from "@/lib/http/route";
import { clientTokenParams, clientTokenSchema, updateClientTokenBody } from "@/lib/schemas/client-token";
import { getClientToken, updateClientToken } from "@/lib/services/client-tokens";

export const GET = route(
  {
    summary: "Get a client-side token.",
    response: clientTokenSchema,
    permission: "client_token.read",
    params: clientTokenParams,
  },
  ({ input }) => getClientToken(input.params.client_token_id),
);

export const PATCH = route(
  {
    summary: "Update or revoke a client-side token.",
    response: clientTokenSchema,
    permission: "client_token.write",
    params: clientTokenParams,
    body: updateClientTokenBody,
  },
  ({ input }) => updateClientToken(input.params.client_token_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
