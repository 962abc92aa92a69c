import { route } from "@/lib/http/route";
import { advanceTestClockBody, subscriptionParams, subscriptionSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { advanceClock } from "@/lib/services/subscriptions/engine";
import { getSubscription } from "@/lib/services/subscriptions/get";

/** Sandbox test clock (ours, beyond the API family): see lib/services/subscriptions/engine.ts advanceClock. */
export const POST = route(
  {
    summary: "Sandbox: move a subscription's test clock forward and run what falls due.",
    response: subscriptionSchema,
    permission: "subscription.write",
    params: subscriptionParams,
    body: advanceTestClockBody,
  },
  async ({ input, auth }) => {
    await advanceClock(input.params.subscription_id, new Date(input.body.to));
    return withPortalLinks(auth, await getSubscription(input.params.subscription_id));
  },
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
