/**
 * The address a request came from, for limits keyed by client (API rate limits, checkout decline
 * limits, sign-in throttling).
 *
 * Under `next start` a route handler sees no socket. Next copies the socket's address into
 * X-Forwarded-For only when the request has none (`??=` in its base server), so a client that
 * sends its own X-Forwarded-For chooses what the handler sees. Hence:
 *  - installClientAddressHeader, called once at server start (instrumentation.ts), writes the
 *    socket's address into CLIENT_ADDRESS_HEADER of every request before Next sees it, replacing
 *    any value the client sent: a header nobody outside can set.
 *  - with BILLING_TRUST_PROXY off (the default) that is the client's address;
 *  - with it on (N proxies that each append to X-Forwarded-For), the address the outermost proxy
 *    was reached from: the N-th entry from the right. Not the leftmost: a proxy that appends keeps
 *    whatever the client wrote in front, so the leftmost entry is the client's to choose.
 */
import http from "node:http";
import https from "node:https";
import ipaddr from "ipaddr.js";
import { config } from "../config.ts";

export const CLIENT_ADDRESS_HEADER = "x-billing-client-address";

const INSTALLED = Symbol.for("billing.clientAddressHeader");

/** Makes every HTTP(S) server of this process stamp requests with their socket's address. */
export function installClientAddressHeader(): void {
  const marked = globalThis as { [INSTALLED]?: boolean };
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit as (this: unknown, event: string | symbol, ...args: unknown[]) => boolean;
    Server.prototype.emit = function (this: unknown, event: string | symbol, ...args: unknown[]) {
      if (event === "request") {
        const request = args[0] as http.IncomingMessage;
        request.headers[CLIENT_ADDRESS_HEADER] = request.socket?.remoteAddress ?? "";
      }
      return emit.call(this, event, ...args);
    } as typeof Server.prototype.emit;
  }
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(",") : (value ?? null);
}

/**
 * An address as a stable key: IPv4-mapped IPv6 as IPv4, and IPv6 by its /64 (one subscriber's
 * network: anyone with an IPv6 connection has a whole /64 to pick addresses from). Anything that
 * is not an address (a port suffix is cut) is kept as text, cut short.
 */
export function normalizeAddress(raw: string): string {
  // Parsing costs microseconds and the API's rate limiter asks on every request: remembered.
  let hit = normalized.get(raw);
  if (hit === undefined) {
    hit = parseAddress(raw);
    if (normalized.size >= 10_000) normalized.clear();
    normalized.set(raw, hit);
  }
  return hit;
}

const normalized = new Map<string, string>();

function parseAddress(raw: string): string {
  let text = raw.trim().replace(/^\[([^\]]*)\](:\d+)?$/, "$1");
  if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  if (!ipaddr.isValid(text)) return text.slice(0, 64) || "unknown";
  let ip = ipaddr.parse(text);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === "ipv4") return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((p) => p.toString(16)).join(":")}::/64`;
}

/** The client's address for the request `headers` belong to (see above). */
export function clientAddress(headers: HeaderBag): string {
  const hops = config.trustProxyHops;
  const forwarded = (header(headers, "x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  const hop = forwarded[Math.max(0, forwarded.length - hops)];
  if (hops > 0 && hop !== undefined) return normalizeAddress(hop);
  const socket = header(headers, CLIENT_ADDRESS_HEADER);
  if (socket) return normalizeAddress(socket);
  // Not served by a server this process started (a custom server): Next's own X-Forwarded-For,
  // whose last entry is the socket's address unless the client sent the header itself.
  return normalizeAddress(forwarded.at(-1) ?? "unknown");
}
