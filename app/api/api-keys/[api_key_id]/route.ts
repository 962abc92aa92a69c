import { route } from "@/lib/http/route";

import { apiKeyParams, apiKeySchema, updateApiKeyBody } from "@/lib/schemas/api-key";
import { getApiKey, updateApiKey } from "@/lib/services/api-keys";

export const GET = route(
  { summary: "Get an API key (masked).", response: apiKeySchema, permission: "api_key.read", params: apiKeyParams },
  ({ input }) => getApiKey(input.params.api_key_id),
);

export const PATCH = route(
  {
    summary: "Update or revoke an API key.",
    response: apiKeySchema,
    permission: "api_key.write",
    params: apiKeyParams,
    body: updateApiKeyBody,
  },
  ({ input }) => updateApiKey(input.params.api_key_id, input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
