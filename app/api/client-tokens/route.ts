import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { clientTokenSchema, createClientTokenBody, listClientTokensQuery } from "@/lib/schemas/client-token";
import { createClientToken, listClientTokens } from "@/lib/services/client-tokens";

export const GET = route(
  {
    summary: "List client-side tokens.",
    response: paginated(clientTokenSchema),
    permission: "client_token.read",
    query: listClientTokensQuery,
  },
  async ({ input }) => listOfJson(await listClientTokens(input.query)),
);

export const POST = route(
  {
    summary: "Create a client-side token.",
    response: clientTokenSchema,
    permission: "client_token.write",
    body: createClientTokenBody,
    status: 201,
  },
  ({ input }) => createClientToken(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
