/** POST /subscriptions/{id}/charge/preview: what the same one-time charge would bill. */
import { route } from "@/lib/http/route";
import { chargeSubscriptionBody, subscriptionParams, subscriptionPreviewSchema } from "@/lib/schemas/subscription";
import { previewCharge } from "@/lib/services/subscriptions/charge";

export const POST = route(
  {
    summary: "Preview a one-time charge on a subscription.",
    response: subscriptionPreviewSchema,
    permission: "subscription.read",
    params: subscriptionParams,
    body: chargeSubscriptionBody,
  },
  ({ input }) => previewCharge(input.params.subscription_id, input.body),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
