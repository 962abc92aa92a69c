/**
 * The addresses this deployment's webhooks come from (GET /ips). Only the operator knows them (the
 * server's egress address, a NAT gateway, a proxy), so they are configuration:
 * BILLING_WEBHOOK_SOURCE_IPS, comma-separated IPv4 addresses or CIDRs (`203.0.113.7`,
 * `198.51.100.0/24`). Unset or empty: an empty list (nothing to allowlist is known).
 *
 * Decisions:
 * - A bare address is its /32; a CIDR with host bits set (`198.51.100.9/24`) is written as its
 *   network (`198.51.100.0/24`); duplicates are dropped; the order given is kept.
 * - IPv4 only, four decimal parts: the family's answer has `ipv4_cidrs` and nothing for IPv6.
 * - A bad entry is the operator's mistake, never the caller's: the list is refused whole (the
 *   answer would otherwise be an allowlist that lets real deliveries be blocked), the request gets
 *   500 internal_error and the log names the variable and the entry. The parse is cached per
 *   value of the variable, so a request costs no parsing.
 */
import ipaddr from "ipaddr.js";

export const WEBHOOK_SOURCE_IPS_VARIABLE = "BILLING_WEBHOOK_SOURCE_IPS";

/** The CIDRs of `text` (the variable's value), or the first entry that is not one. */
export function parseSourceIps(text: string | undefined): { cidrs: string[] } | { bad: string } {
  const cidrs: string[] = [];
  for (const raw of (text ?? "").split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const [address = "", bits, ...rest] = entry.split("/");
    const prefix = bits === undefined ? 32 : /^\d{1,2}$/.test(bits) ? Number(bits) : Number.NaN;
    if (rest.length > 0 || !ipaddr.IPv4.isValidFourPartDecimal(address) || !(prefix >= 0 && prefix <= 32)) {
      return { bad: entry };
    }
    const network = ipaddr.IPv4.networkAddressFromCIDR(`${address}/${prefix}`).toString();
    const cidr = `${network}/${prefix}`;
    if (!cidrs.includes(cidr)) cidrs.push(cidr);
  }
  return { cidrs };
}

let cached: { text: string | undefined; cidrs: string[] } | undefined;

/** The configured CIDRs; throws (a 500 for the caller, the reason in the log) when one is malformed. */
export function webhookSourceIps(): { ipv4_cidrs: string[] } {
  const text = process.env[WEBHOOK_SOURCE_IPS_VARIABLE];
  if (cached && cached.text === text) return { ipv4_cidrs: [...cached.cidrs] };
  const parsed = parseSourceIps(text);
  if ("bad" in parsed) {
    throw new Error(
      `${WEBHOOK_SOURCE_IPS_VARIABLE}: "${parsed.bad}" is not an IPv4 address or CIDR (e.g. 203.0.113.7 or 198.51.100.0/24)`,
    );
  }
  cached = { text, cidrs: parsed.cidrs };
  return { ipv4_cidrs: [...parsed.cidrs] };
}
