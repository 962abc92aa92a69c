import { route } from "@/lib/http/route";
import { transactionParams } from "@/lib/schemas/transaction";
import { hostedInvoiceLink } from "@/lib/services/hosted-invoices";

/** An extension of ours: the public hosted invoice page of a transaction that has an invoice. */
export const GET = route({ permission: "transaction.read", params: transactionParams }, ({ input }) =>
  hostedInvoiceLink(input.params.transaction_id),
);

export {
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
