import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { createNotificationSettingBody, listNotificationSettingsQuery } from "@/lib/schemas/notification-setting";
import { createNotificationSetting, listNotificationSettings } from "@/lib/services/notification-settings";

export const GET = route(
  { permission: "notification_setting.read", query: listNotificationSettingsQuery },
  async ({ input, auth }) =>
    listOfJson(await listNotificationSettings(input.query, auth.permissions.has("notification_setting.write"))),
);

export const POST = route(
  { permission: "notification_setting.write", body: createNotificationSettingBody, status: 201 },
  ({ input }) => createNotificationSetting(input.body),
);

export { methodNotAllowed as PUT, methodNotAllowed as PATCH, methodNotAllowed as DELETE } from "@/lib/http/route";
