import { route } from "@/lib/http/route";
import { processorWebhooksSchema } from "@/lib/schemas/processor-events";
import { getProcessorWebhooks } from "@/lib/services/processor-events";

export const GET = route(
  {
    summary: "Stripe's webhooks: the last event received, how many wait to be applied, and recent failures.",
    response: processorWebhooksSchema,
    permission: "settings.read",
  },
  () => getProcessorWebhooks(),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
