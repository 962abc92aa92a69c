/** POST /customers/{customer_id}/portal-sessions: see lib/services/portal/sessions.ts. */
import { route } from "@/lib/http/route";
import { customerParams } from "@/lib/schemas/customer";
import { createPortalSessionBody, portalSessionSchema } from "@/lib/schemas/portal";
import { createPortalSession } from "@/lib/services/portal/sessions";

export const POST = route(
  {
    summary: "Create a customer portal session with its authenticated links.",
    response: portalSessionSchema,
    permission: "customer_portal_session.write",
    params: customerParams,
    body: createPortalSessionBody,
    optionalBody: true,
    status: 201,
  },
  ({ input }) => createPortalSession(input.params.customer_id, input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
