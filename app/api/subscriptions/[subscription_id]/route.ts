import { route } from "@/lib/http/route";
import { subscriptionParams, subscriptionQuery } from "@/lib/schemas/subscription";
import { getSubscription } from "@/lib/services/subscriptions/get";

export const GET = route(
  { permission: "subscription.read", params: subscriptionParams, query: subscriptionQuery },
  ({ input }) => getSubscription(input.params.subscription_id, input.query.include),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
