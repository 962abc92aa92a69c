/** An extension of ours: emails the customer a portal link (lib/services/emails/link-emails.ts emailPortalLink). */
import { route } from "@/lib/http/route";
import { customerParams } from "@/lib/schemas/customer";
import { queuedEmailSchema } from "@/lib/schemas/email";
import { emailPortalLink } from "@/lib/services/emails/link-emails";

export const POST = route(
  {
    summary: "Email the customer a link to their portal.",
    response: queuedEmailSchema,
    permission: "customer_portal_session.write",
    params: customerParams,
    status: 202,
  },
  ({ input }) => emailPortalLink(input.params.customer_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
