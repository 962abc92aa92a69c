import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import {
  createNotificationSettingBody,
  listNotificationSettingsQuery,
  notificationSettingSchema,
} from "@/lib/schemas/notification-setting";
import { createNotificationSetting, listNotificationSettings } from "@/lib/services/notification-settings";

export const GET = route(
  {
    summary: "List notification destinations.",
    response: paginated(notificationSettingSchema),
    permission: "notification_setting.read",
    query: listNotificationSettingsQuery,
  },
  async ({ input, auth }) =>
    listOfJson(await listNotificationSettings(input.query, auth.permissions.has("notification_setting.write"))),
);

export const POST = route(
  {
    summary: "Create a notification destination.",
    response: notificationSettingSchema,
    permission: "notification_setting.write",
    body: createNotificationSettingBody,
    status: 201,
  },
  ({ input }) => createNotificationSetting(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
