/** POST /subscriptions/{subscription_id}/pause: see lib/services/subscriptions/pause.ts. */
import { route } from "@/lib/http/route";
import { pauseSubscriptionBody, subscriptionParams, subscriptionSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { pauseSubscription } from "@/lib/services/subscriptions/pause";

export const POST = route(
  {
    summary: "Pause a subscription, now or at the end of its billing period.",
    response: subscriptionSchema,
    permission: "subscription.write",
    params: subscriptionParams,
    body: pauseSubscriptionBody,
    optionalBody: true,
  },
  async ({ input, auth }) => withPortalLinks(auth, await pauseSubscription(input.params.subscription_id, input.body)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
