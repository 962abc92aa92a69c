import { route } from "@/lib/http/route";
import { paymentSettingsTestSchema } from "@/lib/schemas/payment-settings";
import { testPaymentSettings } from "@/lib/services/payment-settings";

export const POST = route(
  {
    summary: "Test the Stripe connection: the name, country and default currency of the keys' Stripe account.",
    response: paymentSettingsTestSchema,
    permission: "settings.write",
  },
  () => testPaymentSettings(),
);

export {
  methodNotAllowed as GET,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
