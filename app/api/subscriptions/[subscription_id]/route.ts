import { requirePermission } from "@/lib/http/auth";
import { route } from "@/lib/http/route";
import {
  subscriptionParams,
  subscriptionQuery,
  subscriptionSchema,
  updateSubscriptionBody,
} from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { getSubscription } from "@/lib/services/subscriptions/get";
import { updateSubscription } from "@/lib/services/subscriptions/update";

export const GET = route(
  {
    summary: "Get a subscription.",
    response: subscriptionSchema,
    permission: "subscription.read",
    params: subscriptionParams,
    query: subscriptionQuery,
  },
  async ({ input, auth }) => {
    // The previews show transactions: they need transaction.read too, as in the API family.
    if (input.query.include?.length) requirePermission(auth, "transaction.read");
    return withPortalLinks(auth, await getSubscription(input.params.subscription_id, input.query.include));
  },
);

export const PATCH = route(
  {
    summary: "Update a subscription.",
    response: subscriptionSchema,
    permission: "subscription.write",
    params: subscriptionParams,
    body: updateSubscriptionBody,
  },
  async ({ input, auth }) => withPortalLinks(auth, await updateSubscription(input.params.subscription_id, input.body)),
);

export { methodNotAllowed as PUT, methodNotAllowed as POST, methodNotAllowed as DELETE } from "@/lib/http/route";
