/**
 * Where notifications may be sent. A destination is an http(s) URL; in live it must not resolve to
 * a private, loopback, link-local or otherwise non-public address (no requests into the merchant's
 * or our own network). The sandbox allows such addresses for local development unless configured
 * otherwise (BILLING_WEBHOOK_ALLOW_PRIVATE=false). Checked when a destination is saved and again
 * before every delivery, since DNS can change in between.
 *
 * Before a delivery the host is resolved ONCE (resolveDestination): every address is checked and
 * the connection is then made to those very addresses (lib/events/send.ts pins them), never to a
 * second answer of DNS. Otherwise a host answering a public address to the check and 127.0.0.1 to
 * the connection (DNS rebinding, a TTL of 0) would pass the check and reach our own network.
 */
import type { LookupAddress } from "node:dns";
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

/** Every address a host name resolves to. */
export type HostResolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: HostResolver = (host) => lookup(host, { all: true, verbatim: true });
let resolver: HostResolver = systemResolver;

/**
 * Replaces how host names are resolved (no argument: the system's resolver again). For tests: a
 * resolver that answers differently the second time is how DNS rebinding looks.
 */
export function setHostResolver(next?: HostResolver): void {
  resolver = next ?? systemResolver;
}

/**
 * A destination ready to be connected to: its URL and the addresses to connect to, already
 * checked (null when the host is an IP address literal, which needs no lookup).
 */
export interface ResolvedDestination {
  url: URL;
  addresses: LookupAddress[] | null;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

function blockedAddress(addresses: readonly LookupAddress[]): string | null {
  if (config.webhooks.allowPrivateDestinations) return null;
  return addresses.find((entry) => !isPublicAddress(entry.address))?.address ?? null;
}

/**
 * Resolves `url`'s host once and checks every address it has: the addresses to connect to, or why
 * the destination cannot be used. The sandbox (private addresses allowed) resolves and pins too,
 * so that the request goes where the lookup said, in both environments alike.
 */
export async function resolveDestination(url: string): Promise<ResolvedDestination | { problem: string }> {
  const syntax = destinationUrlProblem(url);
  if (syntax) return { problem: syntax };
  const parsed = new URL(url);
  const host = hostOf(parsed);
  if (ipaddr.isValid(host)) {
    const blocked = blockedAddress([{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }]);
    return blocked
      ? { problem: `resolves to ${blocked}, which is not a public address` }
      : { url: parsed, addresses: null };
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolver(host);
  } catch {
    return { problem: `host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { problem: `host ${host} does not resolve` };
  const blocked = blockedAddress(addresses);
  if (blocked) return { problem: `resolves to ${blocked}, which is not a public address` };
  return { url: parsed, addresses };
}

/**
 * Why `url` cannot be saved as a destination, or null when it can. With private destinations
 * allowed (the sandbox), no lookup is needed: a host that does not resolve yet may be saved.
 */
export async function destinationAddressProblem(url: string): Promise<string | null> {
  const syntax = destinationUrlProblem(url);
  if (syntax) return syntax;
  if (config.webhooks.allowPrivateDestinations) return null;
  const resolved = await resolveDestination(url);
  return "problem" in resolved ? resolved.problem : null;
}
