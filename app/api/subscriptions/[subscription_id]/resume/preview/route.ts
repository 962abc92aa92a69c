/**
 * POST /subscriptions/{id}/resume/preview (ours): what the same resume would bill and change,
 * without doing it — see lib/services/subscriptions/resume.ts.
 */
import { route } from "@/lib/http/route";
import { resumeSubscriptionBody, subscriptionParams, subscriptionPreviewSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { previewResume } from "@/lib/services/subscriptions/resume";

export const POST = route(
  {
    summary: "Preview resuming a paused subscription: what it charges now and next, without resuming it.",
    response: subscriptionPreviewSchema,
    permission: "subscription.read",
    params: subscriptionParams,
    body: resumeSubscriptionBody,
    optionalBody: true,
  },
  async ({ input, auth }) => withPortalLinks(auth, await previewResume(input.params.subscription_id, input.body)),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
