import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { listNotificationLogsQuery, notificationParams } from "@/lib/schemas/notification";
import { listNotificationLogs } from "@/lib/services/notifications";

export const GET = route(
  { permission: "notification.read", params: notificationParams, query: listNotificationLogsQuery },
  async ({ input, auth }) =>
    listOfJson(await listNotificationLogs(input.params.notification_id, input.query, auth.permissions)),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
