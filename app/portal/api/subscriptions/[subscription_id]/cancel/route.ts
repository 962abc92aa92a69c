/** The portal's cancel (at the end of the billing period): lib/services/portal/actions.ts. */
import { route } from "@/lib/http/route";
import { portalCancelBody, portalSubscriptionParams } from "@/lib/schemas/portal";
import { requirePortalCustomer } from "@/lib/services/portal/access";
import { portalCancel } from "@/lib/services/portal/actions";

export const POST = route(
  { permission: "signed", params: portalSubscriptionParams, body: portalCancelBody },
  async ({ input, request }) => portalCancel(await requirePortalCustomer(request), input.params.subscription_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
