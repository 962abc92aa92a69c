/** POST /subscriptions/{subscription_id}/cancel: see lib/services/subscriptions/cancel.ts. */
import { route } from "@/lib/http/route";
import { cancelSubscriptionBody, subscriptionParams, subscriptionSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { cancelSubscription } from "@/lib/services/subscriptions/cancel";

export const POST = route(
  {
    summary: "Cancel a subscription, now or at the end of its billing period.",
    response: subscriptionSchema,
    permission: "subscription.write",
    params: subscriptionParams,
    body: cancelSubscriptionBody,
    optionalBody: true,
  },
  async ({ input, auth }) => withPortalLinks(auth, await cancelSubscription(input.params.subscription_id, input.body)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
