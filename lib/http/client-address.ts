/**
 * The address of the client a request comes from, for limits kept per client (API rate limits,
 * checkout decline limits, sign-in attempts).
 *
 * Route handlers do not see the socket. `npm start` (lib/cli/main.ts) runs Next with the preload
 * lib/http/peer-address.mjs, which appends the socket's peer address to X-Forwarded-For as a proxy
 * hop would, so the last entry of X-Forwarded-For is always the peer, whatever the client sent.
 * (Without the preload, Next sets X-Forwarded-For to the peer only when the request has none: a bare
 * `next start` is spoofable by a client sending its own header.)
 *
 * BILLING_TRUST_PROXY says how many proxies in front of us to believe (0 by default): the client is
 * the entry that many places left of the peer, i.e. the address the outermost trusted proxy saw.
 * Entries further left were written by the client and are never used.
 */
import ipaddr from "ipaddr.js";
import { config } from "../config.ts";

/** Set by lib/http/peer-address.mjs in this process when it stamps the socket's address. */
const STAMPED = Symbol.for("billing.peerAddressStamped");

export function peerAddressStamped(): boolean {
  return (globalThis as Record<symbol, unknown>)[STAMPED] === true;
}

/**
 * Normalized addresses by the text they were written as: parsing costs microseconds, and a client
 * sends many requests. Bounded; emptied when full.
 */
const normalized = new Map<string, string>();
const MAX_CACHED = 10_000;

function normalize(address: string): string {
  let hit = normalized.get(address);
  if (hit === undefined) {
    hit = parse(address);
    if (normalized.size >= MAX_CACHED) normalized.clear();
    normalized.set(address, hit);
  }
  return hit;
}

/** `::ffff:1.2.3.4` as `1.2.3.4`, IPv6 in its normalized form; anything unparsable as given. */
function parse(address: string): string {
  let text = address.trim();
  // Proxies may write `1.2.3.4:5678` or `[2001:db8::1]:5678`.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  if (!ipaddr.isValid(text)) return text.slice(0, 100);
  const parsed = ipaddr.process(text);
  return parsed.kind() === "ipv6" ? (parsed as ipaddr.IPv6).toNormalizedString() : parsed.toString();
}

/** The client's address, or null when the request carries none (a handler called directly in tests). */
export function clientAddress(request: Request): string | null {
  const forwarded = request.headers.get("x-forwarded-for");
  if (!forwarded) return null;
  const trusted = config.trustProxyHops;
  if (trusted === 0) {
    // The common case, without splitting: the last hop.
    const last = forwarded.slice(forwarded.lastIndexOf(",") + 1).trim();
    if (last !== "") return normalize(last);
  }
  const hops = forwarded
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  if (hops.length === 0) return null;
  const index = Math.max(0, hops.length - 1 - trusted);
  return normalize(hops[index]);
}

/**
 * What a per-client limit is kept under: the address, but an IPv6 client by its /64 (one host
 * usually has a whole /64 to itself and could otherwise take a fresh address per request).
 */
export function clientLimitKey(address: string | null): string {
  if (address === null) return "unknown";
  // Normalized IPv4 (and anything unparsable) has no colon.
  if (!address.includes(":")) return address;
  let key = prefixes.get(address);
  if (key === undefined) {
    key = ipaddr.IPv6.isValid(address)
      ? `${ipaddr.IPv6.parse(address)
          .parts.slice(0, 4)
          .map((part) => part.toString(16))
          .join(":")}::/64`
      : address;
    if (prefixes.size >= MAX_CACHED) prefixes.clear();
    prefixes.set(address, key);
  }
  return key;
}

const prefixes = new Map<string, string>();
