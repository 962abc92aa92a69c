/**
 * Where notifications may be sent. A destination is an http(s) URL; in live it must not resolve to
 * a private, loopback, link-local or otherwise non-public address (no requests into the merchant's
 * or our own network). The sandbox allows such addresses for local development unless configured
 * otherwise (BILLING_WEBHOOK_ALLOW_PRIVATE=false). Checked when a destination is saved and again
 * before every delivery, since DNS can change in between.
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { config } from "../config.ts";

/** Why `url` cannot be a destination, or null when it can (syntax only: no DNS). */
export function destinationUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be a valid URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must be an http or https URL";
  if (parsed.username || parsed.password) return "must not contain credentials";
  return null;
}

/** Whether an IP address is on the public internet (unicast, not reserved). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === "unicast";
}

/**
 * The addresses `url`'s host resolves to, or the reason it may not be used. With private
 * destinations allowed, no lookup is needed.
 */
export async function destinationAddressProblem(url: string): Promise<string | null> {
  const syntax = destinationUrlProblem(url);
  if (syntax) return syntax;
  if (config.webhooks.allowPrivateDestinations) return null;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  const blocked = addresses.find((address) => !isPublicAddress(address));
  return blocked ? `resolves to ${blocked}, which is not a public address` : null;
}
