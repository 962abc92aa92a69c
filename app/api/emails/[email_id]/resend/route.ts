/** An extension of ours: sends an email of the log again (lib/services/emails/resend.ts resendEmail). */
import { route } from "@/lib/http/route";
import { emailParams, emailSummarySchema } from "@/lib/schemas/email";
import { resendEmail } from "@/lib/services/emails/resend";

export const POST = route(
  {
    summary: "Send an email again, to the same address, as a new email of the log.",
    response: emailSummarySchema,
    permission: "notification.write",
    params: emailParams,
    status: 201,
  },
  ({ input }) => resendEmail(input.params.email_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
