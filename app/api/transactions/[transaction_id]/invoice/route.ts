import { route } from "@/lib/http/route";
import { documentPdfQuery, documentUrlSchema } from "@/lib/schemas/document";
import { transactionParams } from "@/lib/schemas/transaction";
import { invoiceUrl } from "@/lib/services/documents";

export const GET = route(
  {
    summary: "Get a signed link to a transaction's invoice PDF.",
    response: documentUrlSchema,
    permission: "transaction.read",
    params: transactionParams,
    query: documentPdfQuery,
  },
  ({ input }) => invoiceUrl(input.params.transaction_id, input.query.disposition),
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
