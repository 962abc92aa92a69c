/** PATCH /subscriptions/{id}/preview: what the same PATCH would do, without doing it. */
import { route } from "@/lib/http/route";
import { subscriptionParams, subscriptionPreviewSchema, updateSubscriptionBody } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { previewUpdate } from "@/lib/services/subscriptions/update-preview";

export const PATCH = route(
  {
    summary: "Preview an update to a subscription without making it.",
    response: subscriptionPreviewSchema,
    permission: "subscription.read",
    params: subscriptionParams,
    body: updateSubscriptionBody,
  },
  async ({ input, auth }) => withPortalLinks(auth, await previewUpdate(input.params.subscription_id, input.body)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as POST,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
