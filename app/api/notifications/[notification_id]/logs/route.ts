import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { listNotificationLogsQuery, notificationLogSchema, notificationParams } from "@/lib/schemas/notification";
import { listNotificationLogs } from "@/lib/services/notifications";

export const GET = route(
  {
    summary: "List the delivery attempts of a notification.",
    response: paginated(notificationLogSchema),
    permission: "notification.read",
    params: notificationParams,
    query: listNotificationLogsQuery,
  },
  async ({ input, auth }) =>
    listOfJson(await listNotificationLogs(input.params.notification_id, input.query, auth.permissions)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
