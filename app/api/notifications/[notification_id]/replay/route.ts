import { route } from "@/lib/http/route";
import { notificationParams, notificationReplaySchema } from "@/lib/schemas/notification";
import { replayNotification } from "@/lib/services/notifications";

/** 202: the replay is a new notification whose delivery is queued. */
export const POST = route(
  {
    summary: "Replay a notification: a new notification is queued (202).",
    response: notificationReplaySchema,
    permission: "notification.write",
    params: notificationParams,
    status: 202,
  },
  ({ input }) => replayNotification(input.params.notification_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
