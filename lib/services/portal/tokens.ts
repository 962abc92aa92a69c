/**
 * The customer portal's tokens, and the customer auth token (decision: portal-tokens).
 *
 * Format (decided here; the API family uses a JWT, which no client is meant to read): a compact,
 * self-contained, HMAC-signed value
 *
 *   pga_<payload>.<signature>      portal (from portal sessions and authenticated management_urls)
 *   pca_<payload>.<signature>      customer auth token (POST /customers/{id}/auth-token)
 *
 * `payload` is base64url JSON `{v:1, sub:<customer ID>, sid:<cpls_… or null>, scope, iat, exp}`
 * (Unix seconds) and `signature` the base64url HMAC-SHA256 of `<prefix>_<payload>` under a key
 * derived from the session secret (sessionSecret(): NEXTAUTH_SECRET or the generated one kept in
 * the database), one key per kind of token under its own label, the way document links are signed
 * (lib/services/documents.ts). So:
 * - a token names one customer and nothing else: every portal read and write is filtered by that
 *   customer ID (lib/services/portal/data.ts); one customer's token never reaches another's data;
 * - a portal token grants the portal only: it is never accepted by /api (the API takes API keys
 *   and staff sessions), and a customer auth token is not a portal token (other prefix, scope and
 *   key), nor the reverse;
 * - tokens are not stored: every web process checks them with the shared secret alone, and
 *   changing the secret voids all of them. They expire (24 hours for the portal, as the family's
 *   `exp = iat + 24h`; 30 minutes for customer auth tokens) and cannot be revoked one by one.
 * The signature is checked first, in constant time, so an expired token tells nothing about a
 * forged one.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { sessionSecret } from "../settings.ts";

export const PORTAL_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
export const CUSTOMER_AUTH_TOKEN_LIFETIME_SECONDS = 30 * 60;

/** Longest token accepted: anything longer is not ours (and is not hashed). */
const MAX_TOKEN_LENGTH = 600;

const KINDS = {
  portal: { prefix: "pga", scope: "customer_portal", label: "billing customer portal tokens v1" },
  customer_auth: { prefix: "pca", scope: "customer_auth", label: "billing customer auth tokens v1" },
} as const;
export type TokenKind = keyof typeof KINDS;

export interface TokenClaims {
  customerId: string;
  sessionId: string | null;
  /** Unix seconds. */
  issuedAt: number;
  /** Unix seconds. */
  expiresAt: number;
}

export type TokenCheck = { ok: true; claims: TokenClaims } | { ok: false; reason: "invalid" | "expired" };

const keys = new Map<string, Promise<Buffer>>();

async function keyFor(kind: TokenKind): Promise<Buffer> {
  const secret = await sessionSecret();
  const cacheKey = `${kind}:${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = Promise.resolve(createHmac("sha256", secret).update(KINDS[kind].label).digest());
    if (keys.size > 16) keys.clear();
    keys.set(cacheKey, key);
  }
  return key;
}

function sign(body: string, key: Buffer): string {
  return createHmac("sha256", key).update(body).digest("base64url");
}

/** A signed token of `kind` for `customerId`, valid `lifetime` seconds from `now` (milliseconds). */
export async function issueToken(
  kind: TokenKind,
  customerId: string,
  options: { sessionId?: string | null; now?: number; lifetime?: number } = {},
): Promise<{ token: string; claims: TokenClaims }> {
  const { prefix, scope } = KINDS[kind];
  const iat = Math.floor((options.now ?? Date.now()) / 1000);
  const lifetime =
    options.lifetime ?? (kind === "portal" ? PORTAL_TOKEN_LIFETIME_SECONDS : CUSTOMER_AUTH_TOKEN_LIFETIME_SECONDS);
  const claims: TokenClaims = {
    customerId,
    sessionId: options.sessionId ?? null,
    issuedAt: iat,
    expiresAt: iat + lifetime,
  };
  const payload = Buffer.from(
    JSON.stringify({ v: 1, sub: customerId, sid: claims.sessionId, scope, iat, exp: claims.expiresAt }),
  ).toString("base64url");
  const body = `${prefix}_${payload}`;
  return { token: `${body}.${sign(body, await keyFor(kind))}`, claims };
}

const SHAPE = /^(pga|pca)_([A-Za-z0-9_-]{10,500})\.([A-Za-z0-9_-]{43})$/;
const CUSTOMER_ID = /^ctm_[a-z0-9]{26}$/;
const SESSION_ID = /^cpls_[a-z0-9]{26}$/;

/** Checks a token of `kind` received from anywhere (a link, a cookie): any value may arrive. */
export async function verifyToken(kind: TokenKind, token: unknown, now = Date.now()): Promise<TokenCheck> {
  if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: "invalid" };
  const [, prefix, encoded, signature] = SHAPE.exec(token) ?? [];
  if (prefix === undefined || encoded === undefined || signature === undefined || prefix !== KINDS[kind].prefix) {
    return { ok: false, reason: "invalid" };
  }
  const body = `${prefix}_${encoded}`;
  const expected = Buffer.from(sign(body, await keyFor(kind)), "base64url");
  const received = Buffer.from(signature, "base64url");
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) {
    return { ok: false, reason: "invalid" };
  }
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "invalid" };
  }
  const { v, sub, sid, scope, iat, exp } = payload ?? {};
  if (
    v !== 1 ||
    scope !== KINDS[kind].scope ||
    typeof sub !== "string" ||
    !CUSTOMER_ID.test(sub) ||
    !(sid === null || (typeof sid === "string" && SESSION_ID.test(sid))) ||
    !Number.isSafeInteger(iat) ||
    !Number.isSafeInteger(exp)
  ) {
    return { ok: false, reason: "invalid" };
  }
  const claims: TokenClaims = {
    customerId: sub,
    sessionId: sid as string | null,
    issuedAt: iat as number,
    expiresAt: exp as number,
  };
  if (claims.expiresAt <= Math.floor(now / 1000)) return { ok: false, reason: "expired" };
  return { ok: true, claims };
}
