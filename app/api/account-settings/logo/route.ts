import { route } from "@/lib/http/route";
import { accountSettingsSchema, uploadLogoBody } from "@/lib/schemas/account-settings";
import { removeLogo, uploadLogo } from "@/lib/services/account-settings";

export const PUT = route(
  {
    summary: "Upload the merchant's logo (PNG or JPEG, base64, at most 256 KB).",
    response: accountSettingsSchema,
    permission: "settings.write",
    body: uploadLogoBody,
  },
  ({ input }) => uploadLogo(input.body),
);

export const DELETE = route(
  {
    summary: "Remove the merchant's logo.",
    response: accountSettingsSchema,
    permission: "settings.write",
  },
  () => removeLogo(),
);

export { methodNotAllowed as GET, methodNotAllowed as POST, methodNotAllowed as PATCH } from "@/lib/http/route";
