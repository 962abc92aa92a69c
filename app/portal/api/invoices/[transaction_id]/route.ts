/** An invoice PDF of one of the customer's transactions, downloaded from the portal. */
import { route } from "@/lib/http/route";
import { portalTransactionParams } from "@/lib/schemas/portal";
import { pdfResponse } from "@/lib/services/documents";
import { requirePortalCustomer } from "@/lib/services/portal/access";
import { portalInvoice } from "@/lib/services/portal/actions";

export const GET = route({ permission: "signed", params: portalTransactionParams }, async ({ input, request }) => {
  const { bytes, fileName } = await portalInvoice(await requirePortalCustomer(request), input.params.transaction_id);
  return pdfResponse(bytes, fileName, "attachment");
});

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
