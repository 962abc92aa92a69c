import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { emailSummarySchema, listEmailsQuery } from "@/lib/schemas/email";
import { listEmails } from "@/lib/services/emails/list";

/** An extension of ours: the customer emails written (sent through SMTP, or only logged without it). */
export const GET = route(
  {
    summary: "List the customer emails written (sent, logged or failed).",
    response: paginated(emailSummarySchema),
    permission: "notification.read",
    query: listEmailsQuery,
  },
  async ({ input }) => listOfJson(await listEmails(input.query)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
