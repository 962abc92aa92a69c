import { route } from "@/lib/http/route";
import { emailParams, emailSchema } from "@/lib/schemas/email";
import { getEmail } from "@/lib/services/emails/list";

export const GET = route(
  {
    summary: "Get an email with its text and HTML.",
    response: emailSchema,
    permission: "notification.read",
    params: emailParams,
  },
  ({ input }) => getEmail(input.params.email_id),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
