/**
 * Which web pages may use the client-side library's endpoints (app/js-api), by the `Origin` header
 * the buyer's browser sends with the request (lib/services/checkout-domains.ts has the why).
 *
 * - No approved checkout domain: every origin may (the library worked so before domains existed,
 *   and a fresh deployment keeps working).
 * - Otherwise the origin's host must be an approved domain exactly (scheme and port are not
 *   compared; subdomains are approved one by one, as in the API family), or the origin must be this
 *   server's own (PUBLIC_URL: the demo page and the dashboard's previews) or a loopback host
 *   (localhost, 127.0.0.0/8, [::1]: a developer's machine, which the family allows too).
 * - A request without an Origin, or with `Origin: null` (a sandboxed frame, a file:// page), is
 *   refused then: browsers send one with every request these endpoints take (a cross-origin POST
 *   with JSON), so only a client that is not a web page lacks it, and those use API keys.
 *
 * An Origin header can be forged by anything that is not a browser: this is the family's guard
 * against other websites opening checkouts with a merchant's published token, not authentication.
 * One indexed query per request and no cache: a domain deleted is refused at once everywhere.
 */
import { config } from "../config.ts";
import { queryExactlyOne } from "../db/sql.ts";
import { ApiError } from "../errors.ts";

function refused(detail: string): ApiError {
  return new ApiError("forbidden", detail);
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function ownOrigin(): string | null {
  try {
    return new URL(config.publicUrl).origin;
  } catch {
    return null;
  }
}

/** Throws 403 forbidden unless a page of `origin` (the request's Origin header) may use the library. */
export async function assertCheckoutOrigin(origin: string | null): Promise<void> {
  let url: URL | null = null;
  if (origin !== null && origin !== "null") {
    try {
      url = new URL(origin);
    } catch {
      url = null;
    }
  }
  const host = url && (url.protocol === "https:" || url.protocol === "http:") ? url.hostname : null;
  if (url && (url.origin === ownOrigin() || (host !== null && isLoopback(host)))) return;
  const row = await queryExactlyOne<{ restricted: boolean; approved: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM checkout_domains WHERE status = 'approved') AS restricted,
            EXISTS (SELECT 1 FROM checkout_domains WHERE status = 'approved' AND domain = $1) AS approved`,
    [host ?? ""],
  );
  if (!row.restricted || row.approved) return;
  if (host === null) {
    throw refused(
      "This account only opens checkouts from its approved checkout domains, and the request names no web page (no usable Origin header).",
    );
  }
  throw refused(
    `${host} is not an approved checkout domain of this account: pages there cannot use the client-side library. Add it under Developers → Checkout domains.`,
  );
}
