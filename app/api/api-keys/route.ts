import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { apiKeySchema, createApiKeyBody, listApiKeysQuery } from "@/lib/schemas/api-key";
import { createApiKey, listApiKeys } from "@/lib/services/api-keys";

export const GET = route(
  {
    summary: "List API keys (masked).",
    response: paginated(apiKeySchema),
    permission: "api_key.read",
    query: listApiKeysQuery,
  },
  async ({ input }) => listOfJson(await listApiKeys(input.query)),
);

export const POST = route(
  {
    summary: "Create an API key; the whole key is shown only in this answer.",
    response: apiKeySchema,
    permission: "api_key.write",
    body: createApiKeyBody,
    status: 201,
  },
  ({ input, auth }) =>
    createApiKey(
      input.body,
      auth.type === "session" ? auth.userId : auth.type === "api_key" ? auth.apiKeyId : undefined,
      auth.permissions,
    ),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
