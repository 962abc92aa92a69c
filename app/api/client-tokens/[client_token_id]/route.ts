import { route } from "@/lib/http/route";
import { clientTokenParams, updateClientTokenBody } from "@/lib/schemas/client-token";
import { getClientToken, updateClientToken } from "@/lib/services/client-tokens";

export const GET = route({ permission: "client_token.read", params: clientTokenParams }, ({ input }) =>
  getClientToken(input.params.client_token_id),
);

export const PATCH = route(
  { permission: "client_token.write", params: clientTokenParams, body: updateClientTokenBody },
  ({ input }) => updateClientToken(input.params.client_token_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
