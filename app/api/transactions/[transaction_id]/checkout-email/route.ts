/** Ours: email the customer the hosted checkout of a ready transaction (lib/services/emails/link-emails.ts emailCheckoutLink). */
import { route } from "@/lib/http/route";
import { queuedEmailSchema } from "@/lib/schemas/email";
import { transactionParams } from "@/lib/schemas/transaction";
import { emailCheckoutLink } from "@/lib/services/emails/link-emails";

export const POST = route(
  {
    summary: "Email the customer the checkout link of a ready transaction (ours).",
    response: queuedEmailSchema,
    permission: "transaction.write",
    params: transactionParams,
    status: 202,
  },
  ({ input }) => emailCheckoutLink(input.params.transaction_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
