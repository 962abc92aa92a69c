import { route } from "@/lib/http/route";
import { paymentSettingsSchema, updatePaymentSettingsBody } from "@/lib/schemas/payment-settings";
import { deletePaymentSettings, getPaymentSettings, updatePaymentSettings } from "@/lib/services/payment-settings";

export const GET = route(
  {
    summary: "Get the payment processor settings (which processor is active; Stripe keys shown as hints only).",
    response: paymentSettingsSchema,
    permission: "settings.read",
  },
  () => getPaymentSettings(),
);

export const PUT = route(
  {
    summary: "Connect Stripe: save a secret and publishable key pair (and the webhook signing secret), encrypted.",
    response: paymentSettingsSchema,
    permission: "settings.write",
    body: updatePaymentSettingsBody,
  },
  ({ input }) => updatePaymentSettings(input.body),
);

export const DELETE = route(
  {
    summary: "Disconnect Stripe: delete the saved keys (payments go back to the sandbox processor).",
    response: paymentSettingsSchema,
    permission: "settings.write",
  },
  () => deletePaymentSettings(),
);

export { methodNotAllowed as POST, methodNotAllowed as PATCH } from "@/lib/http/route";
