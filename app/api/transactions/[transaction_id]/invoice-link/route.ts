import { route } from "@/lib/http/route";
import { hostedInvoiceLinkSchema } from "@/lib/schemas/document";
import { transactionParams } from "@/lib/schemas/transaction";
import { hostedInvoiceLink } from "@/lib/services/hosted-invoices";

/** An extension of ours: the public hosted invoice page of a transaction that has an invoice. */
export const GET = route(
  {
    summary: "Get the signed link of a transaction's hosted invoice page.",
    response: hostedInvoiceLinkSchema,
    permission: "transaction.read",
    params: transactionParams,
  },
  ({ input }) => hostedInvoiceLink(input.params.transaction_id),
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
