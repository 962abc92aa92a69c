/** POST /customers/{customer_id}/auth-token: see lib/services/portal/sessions.ts. */
import { route } from "@/lib/http/route";
import { customerParams } from "@/lib/schemas/customer";
import { customerAuthTokenSchema } from "@/lib/schemas/portal";
import { createCustomerAuthToken } from "@/lib/services/portal/sessions";

// No body: anything sent is not read (the API family's clients send none).
export const POST = route(
  {
    summary: "Create an authentication token for a customer (for the JS checkout).",
    response: customerAuthTokenSchema,
    permission: "customer_auth_token.write",
    params: customerParams,
  },
  ({ input }) => createCustomerAuthToken(input.params.customer_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
