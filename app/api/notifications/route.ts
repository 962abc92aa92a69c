import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { listNotificationsQuery, notificationSchema } from "@/lib/schemas/notification";
import { listNotifications } from "@/lib/services/notifications";

export const GET = route(
  {
    summary: "List notifications.",
    response: paginated(notificationSchema),
    permission: "notification.read",
    query: listNotificationsQuery,
  },
  async ({ input, auth }) => listOfJson(await listNotifications(input.query, auth.permissions)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
