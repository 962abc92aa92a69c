/** An invoice PDF of one of the customer's transactions, downloaded from the portal. */
import { route } from "@/lib/http/route";
import { portalTransactionParams } from "@/lib/schemas/portal";
import { portalInvoiceDownload } from "@/lib/services/portal/actions";

export const GET = route({ permission: "signed", params: portalTransactionParams }, ({ input, request }) =>
  portalInvoiceDownload(request, input.params.transaction_id),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
