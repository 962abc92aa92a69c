import { route } from "@/lib/http/route";
import { updateAccountSettingsBody } from "@/lib/schemas/account-settings";
import { getAccountSettings, updateAccountSettings } from "@/lib/services/account-settings";

export const GET = route({ permission: "settings.read" }, () => getAccountSettings());

export const PATCH = route({ permission: "settings.write", body: updateAccountSettingsBody }, ({ input }) =>
  updateAccountSettings(input.body),
);

export { methodNotAllowed as POST, methodNotAllowed as PUT, methodNotAllowed as DELETE } from "@/lib/http/route";
