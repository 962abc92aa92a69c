import { route } from "@/lib/http/route";
import { accountSettingsSchema, updateAccountSettingsBody } from "@/lib/schemas/account-settings";
import { getAccountSettings, updateAccountSettings } from "@/lib/services/account-settings";

export const GET = route(
  {
    summary: "Get the account settings (merchant name, address, tax mode).",
    response: accountSettingsSchema,
    permission: "settings.read",
  },
  () => getAccountSettings(),
);

export const PATCH = route(
  {
    summary: "Update the account settings.",
    response: accountSettingsSchema,
    permission: "settings.write",
    body: updateAccountSettingsBody,
  },
  ({ input }) => updateAccountSettings(input.body),
);

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as DELETE } from "@/lib/http/route";
