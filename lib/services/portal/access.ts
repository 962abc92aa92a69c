/**
 * How the portal knows whose it is (decided here).
 *
 * A portal link carries a portal token (`?token=pga_…`, tokens.ts). Opening it goes through
 * GET /portal/session (app/portal/session/route.ts): the token is checked, put in an httpOnly
 * cookie scoped to /portal, and the browser is sent on to the same page without the token, so the
 * token leaves the address bar, the history and any Referer at once. Every portal page and every
 * portal endpoint (app/portal/api/**) then reads the cookie and checks its signature and expiry
 * again (nothing is kept on the server), and every read and write is filtered by the token's
 * customer ID (data.ts, actions.ts): one customer's token never reaches another customer's data.
 *
 * The cookie: `billing_portal`, HttpOnly, SameSite=Lax (a cross-site POST never carries it),
 * Path=/portal (the API and the dashboard never see it), Secure when PUBLIC_URL is https, and it
 * lives as long as the token (Max-Age). The portal's endpoints take only JSON bodies and refuse a
 * request whose Origin is another site's, so no other site can act with it either. Opening a link
 * of another customer replaces the cookie: the portal is then that customer's.
 */
import { config } from "../../config.ts";
import { query } from "../../db/sql.ts";
import { ApiError } from "../../errors.ts";
import { RedirectResult } from "../../http/results.ts";
import { type TokenClaims, verifyToken } from "./tokens.ts";

export const PORTAL_COOKIE = "billing_portal";

export type PortalAccess =
  | { ok: true; customerId: string; claims: TokenClaims }
  | { ok: false; reason: "missing" | "invalid" | "expired" };

/** Checks a portal token (from the cookie or a link) and that its customer still exists. */
export async function portalAccess(token: string | undefined | null, now = Date.now()): Promise<PortalAccess> {
  if (!token) return { ok: false, reason: "missing" };
  const check = await verifyToken("portal", token, now);
  if (!check.ok) return check;
  const rows = await query("SELECT 1 FROM customers WHERE id = $1", [check.claims.customerId]);
  if (rows.length === 0) return { ok: false, reason: "invalid" };
  return { ok: true, customerId: check.claims.customerId, claims: check.claims };
}

/** The Set-Cookie value that keeps `token` for the portal until `expiresAt` (Unix seconds). */
export function portalCookie(token: string, expiresAt: number, now = Date.now()): string {
  const maxAge = Math.max(0, expiresAt - Math.floor(now / 1000));
  const secure = config.publicUrl.startsWith("https:") ? "; Secure" : "";
  return `${PORTAL_COOKIE}=${token}; Path=/portal; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/** The portal cookie's value in a Cookie header, if any. */
export function portalCookieValue(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === PORTAL_COOKIE) return rest.join("=");
  }
  return undefined;
}

/**
 * Where a link may send the browser after its token was taken: a path of the portal only (never
 * another site, never `//host`), else the overview.
 */
export function portalNext(next: string | undefined): string {
  if (!next || !/^\/portal(\/[A-Za-z0-9_\-/]*)?$/.test(next) || next.includes("//")) return "/portal/overview";
  return next;
}

const REASONS = {
  missing: "This portal needs a link from the merchant: open it again from their app or email.",
  invalid: "This portal link is not valid. Open it again from the merchant's app or email.",
  expired: "This portal link has expired. Open it again from the merchant's app or email to get a new one.",
} as const;

/**
 * The customer a portal endpoint acts for, from the request's cookie: 401 invalid_token when
 * there is none or it no longer holds; 403 when the request comes from another site.
 */
export async function requirePortalCustomer(request: Request, now = Date.now()): Promise<string> {
  const origin = request.headers.get("origin");
  if (origin !== null && origin !== new URL(config.publicUrl).origin && origin !== new URL(request.url).origin) {
    throw new ApiError("forbidden", "Portal requests are accepted only from the portal's own pages.");
  }
  if (request.headers.get("sec-fetch-site") === "cross-site") {
    throw new ApiError("forbidden", "Portal requests are accepted only from the portal's own pages.");
  }
  const access = await portalAccess(portalCookieValue(request.headers.get("cookie")), now);
  if (!access.ok) throw new ApiError("invalid_token", REASONS[access.reason]);
  return access.customerId;
}

/** GET /portal/session?token=…&next=…: the redirect that sets the cookie, or to the page saying why not. */
export async function openPortalLink(token: string | undefined, next: string | undefined, now = Date.now()) {
  const access = await portalAccess(token, now);
  const headers = { "cache-control": "no-store", "referrer-policy": "no-referrer" };
  if (!access.ok || !token) {
    return new RedirectResult(`/portal/link?reason=${access.ok ? "missing" : access.reason}`, headers);
  }
  return new RedirectResult(portalNext(next), {
    ...headers,
    "set-cookie": portalCookie(token, access.claims.expiresAt, now),
  });
}
