import { route } from "@/lib/http/route";
import { notificationParams } from "@/lib/schemas/notification";
import { replayNotification } from "@/lib/services/notifications";

/** 202: the replay is a new notification whose delivery is queued. */
export const POST = route({ permission: "notification.write", params: notificationParams, status: 202 }, ({ input }) =>
  replayNotification(input.params.notification_id),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
