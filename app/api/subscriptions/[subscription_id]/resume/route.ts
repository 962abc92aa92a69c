/** POST /subscriptions/{subscription_id}/resume: see lib/services/subscriptions/resume.ts. */
import { route } from "@/lib/http/route";
import { resumeSubscriptionBody, subscriptionParams, subscriptionSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { resumeSubscription } from "@/lib/services/subscriptions/resume";

export const POST = route(
  {
    summary: "Resume a paused subscription.",
    response: subscriptionSchema,
    permission: "subscription.write",
    params: subscriptionParams,
    body: resumeSubscriptionBody,
    optionalBody: true,
  },
  async ({ input, auth }) => withPortalLinks(auth, await resumeSubscription(input.params.subscription_id, input.body)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
