/** What the portal's plan change would charge, now and next: lib/services/portal/plans.ts. */
import { route } from "@/lib/http/route";
import { portalPlanBody, portalSubscriptionParams } from "@/lib/schemas/portal";
import { requirePortalCustomer } from "@/lib/services/portal/access";
import { portalPlanPreview } from "@/lib/services/portal/plans";

export const POST = route(
  { permission: "signed", params: portalSubscriptionParams, body: portalPlanBody },
  async ({ input, request }) =>
    portalPlanPreview(await requirePortalCustomer(request), input.params.subscription_id, input.body.price_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
