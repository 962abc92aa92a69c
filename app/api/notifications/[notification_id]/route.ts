import { route } from "@/lib/http/route";
import { notificationParams, notificationSchema } from "@/lib/schemas/notification";
import { getNotification } from "@/lib/services/notifications";

export const GET = route(
  {
    summary: "Get a notification.",
    response: notificationSchema,
    permission: "notification.read",
    params: notificationParams,
  },
  ({ input, auth }) => getNotification(input.params.notification_id, auth.permissions),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
