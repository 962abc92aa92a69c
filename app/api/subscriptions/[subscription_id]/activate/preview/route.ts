/**
 * POST /subscriptions/{id}/activate/preview (ours): what activating the trialing subscription now
 * would charge, without doing it — see lib/services/subscriptions/activate.ts.
 */
import { route } from "@/lib/http/route";
import { subscriptionParams, subscriptionPreviewSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { previewActivation } from "@/lib/services/subscriptions/activate";

// No body, as the activation itself: anything sent is not read.
export const POST = route(
  {
    summary: "Preview activating a trialing subscription now: what it charges, without activating it.",
    response: subscriptionPreviewSchema,
    permission: "subscription.read",
    params: subscriptionParams,
  },
  async ({ input, auth }) => withPortalLinks(auth, await previewActivation(input.params.subscription_id)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
