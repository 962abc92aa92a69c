/** POST /subscriptions/{subscription_id}/activate: see lib/services/subscriptions/activate.ts. */
import { route } from "@/lib/http/route";
import { subscriptionParams, subscriptionSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { activateSubscription } from "@/lib/services/subscriptions/activate";

// No body: anything sent is not read (the API family's clients send none, or `{}`).
export const POST = route(
  {
    summary: "Activate a trialing subscription now.",
    response: subscriptionSchema,
    permission: "subscription.write",
    params: subscriptionParams,
  },
  async ({ input, auth }) => withPortalLinks(auth, await activateSubscription(input.params.subscription_id)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
