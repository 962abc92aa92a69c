import { route } from "@/lib/http/route";
import { notificationParams, notificationSchema } from "@/lib/schemas/notification";
import { retryNotificationNow } from "@/lib/services/notifications";

/** 202 (ours): the next attempt of a notification waiting for its retry is queued now. */
export const POST = route(
  {
    summary: "Retry now (ours): deliver a notification waiting for its next retry at once (202).",
    response: notificationSchema,
    permission: "notification.write",
    params: notificationParams,
    status: 202,
  },
  ({ input, auth }) => retryNotificationNow(input.params.notification_id, auth.permissions),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
