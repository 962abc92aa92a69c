/** POST /subscriptions/{subscription_id}/cancel (reference §3): see lib/services/subscriptions/cancel.ts. */
import { route } from "@/lib/http/route";
import { cancelSubscriptionBody, subscriptionParams } from "@/lib/schemas/subscription";
import { cancelSubscription } from "@/lib/services/subscriptions/cancel";

export const POST = route(
  { permission: "subscription.write", params: subscriptionParams, body: cancelSubscriptionBody, optionalBody: true },
  ({ input }) => cancelSubscription(input.params.subscription_id, input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
