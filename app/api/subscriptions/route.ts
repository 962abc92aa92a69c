import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { listSubscriptionsQuery, subscriptionSchema } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { listSubscriptions } from "@/lib/services/subscriptions/get";

export const GET = route(
  {
    summary: "List subscriptions.",
    response: paginated(subscriptionSchema),
    permission: "subscription.read",
    query: listSubscriptionsQuery,
  },
  async ({ input, auth }) => withPortalLinks(auth, listOfJson(await listSubscriptions(input.query))),
);

// Subscriptions are created by transactions (checkout or an issued invoice), never directly.
export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
