/** The checkout that updates a subscription's card, from the portal: lib/services/portal/actions.ts. */
import { route } from "@/lib/http/route";
import { portalSubscriptionParams } from "@/lib/schemas/portal";
import { requirePortalCustomer } from "@/lib/services/portal/access";
import { portalPaymentMethodCheckout } from "@/lib/services/portal/actions";

export const POST = route({ permission: "signed", params: portalSubscriptionParams }, async ({ input, request }) =>
  portalPaymentMethodCheckout(await requirePortalCustomer(request), input.params.subscription_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
