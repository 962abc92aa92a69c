import { route } from "@/lib/http/route";
import {
  notificationSettingParams,
  notificationSettingSchema,
  updateNotificationSettingBody,
} from "@/lib/schemas/notification-setting";
import {
  deleteNotificationSetting,
  getNotificationSetting,
  updateNotificationSetting,
} from "@/lib/services/notification-settings";

export const GET = route(
  {
    summary: "Get a notification destination.",
    response: notificationSettingSchema,
    permission: "notification_setting.read",
    params: notificationSettingParams,
  },
  ({ input, auth }) =>
    getNotificationSetting(input.params.notification_setting_id, auth.permissions.has("notification_setting.write")),
);

export const PATCH = route(
  {
    summary: "Update a notification destination.",
    response: notificationSettingSchema,
    permission: "notification_setting.write",
    params: notificationSettingParams,
    body: updateNotificationSettingBody,
  },
  ({ input }) => updateNotificationSetting(input.params.notification_setting_id, input.body),
);

/** 204 with no body: the destination, its notifications and their logs are gone. */
export const DELETE = route(
  {
    summary: "Delete a notification destination with its notifications and logs (204, no body).",
    response: "no_content",
    permission: "notification_setting.write",
    params: notificationSettingParams,
  },
  async ({ input, requestId }) => {
    await deleteNotificationSetting(input.params.notification_setting_id);
    return new Response(null, { status: 204, headers: { "x-request-id": requestId } });
  },
);

export { methodNotAllowed as PUT, methodNotAllowed as POST } from "@/lib/http/route";
