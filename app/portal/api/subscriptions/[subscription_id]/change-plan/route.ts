/** The portal's plan change (prices the merchant offers in Settings): lib/services/portal/plans.ts. */
import { route } from "@/lib/http/route";
import { portalPlanBody, portalSubscriptionParams } from "@/lib/schemas/portal";
import { requirePortalCustomer } from "@/lib/services/portal/access";
import { portalPlanChange } from "@/lib/services/portal/plans";

export const POST = route(
  { permission: "signed", params: portalSubscriptionParams, body: portalPlanBody },
  async ({ input, request }) =>
    portalPlanChange(await requirePortalCustomer(request), input.params.subscription_id, input.body.price_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
