/** A customer edits a billing address in the portal: lib/services/portal/actions.ts. */
import { route } from "@/lib/http/route";
import { portalAddressBody, portalAddressParams } from "@/lib/schemas/portal";
import { requirePortalCustomer } from "@/lib/services/portal/access";
import { portalUpdateAddress } from "@/lib/services/portal/actions";

export const PATCH = route(
  { permission: "signed", params: portalAddressParams, body: portalAddressBody },
  async ({ input, request }) =>
    portalUpdateAddress(await requirePortalCustomer(request), input.params.address_id, input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
