import { z } from "zod";

/**
 * GET /ips (the family's "Get IP addresses"): the IPv4 CIDRs webhooks are sent from, so that a
 * merchant can allowlist them. The family's shape has IPv4 only.
 */
export const ipAddressesSchema = z.object({
  ipv4_cidrs: z.array(z.string()),
});
