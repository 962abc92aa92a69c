import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { listSubscriptionsQuery } from "@/lib/schemas/subscription";
import { withPortalLinks } from "@/lib/services/portal/management-urls";
import { listSubscriptions } from "@/lib/services/subscriptions/get";

export const GET = route({ permission: "subscription.read", query: listSubscriptionsQuery }, async ({ input, auth }) =>
  withPortalLinks(auth, listOfJson(await listSubscriptions(input.query))),
);

// Subscriptions are created by transactions (checkout or an issued invoice), never directly.
export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
