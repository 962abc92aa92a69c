/** A customer edits their business details in the portal: lib/services/portal/actions.ts. */
import { route } from "@/lib/http/route";
import { portalBusinessBody, portalBusinessParams } from "@/lib/schemas/portal";
import { requirePortalCustomer } from "@/lib/services/portal/access";
import { portalUpdateBusiness } from "@/lib/services/portal/actions";

export const PATCH = route(
  { permission: "signed", params: portalBusinessParams, body: portalBusinessBody },
  async ({ input, request }) =>
    portalUpdateBusiness(await requirePortalCustomer(request), input.params.business_id, input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
