import { route } from "@/lib/http/route";
import { ipAddressesSchema } from "@/lib/schemas/ip-addresses";
import { webhookSourceIps } from "@/lib/services/webhook-source-ips";

// The family's GET /ips needs no credentials (its `security: []`, no permission); a key sent along
// is still checked, as on every public endpoint.
export const GET = route(
  {
    summary: "The IPv4 addresses webhooks are sent from (BILLING_WEBHOOK_SOURCE_IPS), to allowlist.",
    response: ipAddressesSchema,
    permission: "public",
  },
  async () => webhookSourceIps(),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
