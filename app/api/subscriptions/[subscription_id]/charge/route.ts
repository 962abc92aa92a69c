/** POST /subscriptions/{id}/charge: a one-time charge, now or with the next renewal (201, as the API family answers it). */
import { route } from "@/lib/http/route";
import { chargeSubscriptionBody, subscriptionParams, subscriptionSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { chargeSubscription } from "@/lib/services/subscriptions/charge";

export const POST = route(
  {
    summary: "Create a one-time charge on a subscription, now or with the next renewal.",
    response: subscriptionSchema,
    permission: "subscription.write",
    params: subscriptionParams,
    body: chargeSubscriptionBody,
    status: 201,
  },
  async ({ input, auth }) => withPortalLinks(auth, await chargeSubscription(input.params.subscription_id, input.body)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
