/**
 * An invoice PDF of one of the customer's transactions, downloaded from the portal. A download
 * whose portal session is gone (the cookie expired while the page stayed open) leads to the page
 * that says so, not to an error body.
 */
import { route } from "@/lib/http/route";
import { portalTransactionParams } from "@/lib/schemas/portal";
import { pdfResponse } from "@/lib/services/documents";
import { portalAccess, portalCookieValue } from "@/lib/services/portal/access";
import { portalInvoice } from "@/lib/services/portal/actions";

export const GET = route({ permission: "signed", params: portalTransactionParams }, async ({ input, request }) => {
  const access = await portalAccess(portalCookieValue(request.headers.get("cookie")));
  if (!access.ok) {
    return new Response(null, { status: 303, headers: { location: `/portal/link?reason=${access.reason}` } });
  }
  const { bytes, fileName } = await portalInvoice(access.customerId, input.params.transaction_id);
  return pdfResponse(bytes, fileName, "attachment");
});

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
