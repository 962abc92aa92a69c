/**
 * Who is calling: an API key (`Authorization: Bearer …`) or a signed-in staff member (the
 * next-auth session cookie, for the dashboard). Both end as the same permission set.
 */
import { decode } from "next-auth/jwt";
import { hashApiKey, hashesEqual, parseApiKey } from "../auth/api-key-format.ts";
import { isRole, type Role, rolePermissions } from "../auth/permissions.ts";
import { config } from "../config.ts";
import { ApiError } from "../errors.ts";
import { apiKeyCredentials, markApiKeyUsed } from "../services/api-keys.ts";
import { userRole } from "../services/users.ts";

export type AuthContext =
  | { type: "api_key"; apiKeyId: string; permissions: Set<string> }
  | { type: "session"; userId: string; role: Role; permissions: Set<string> }
  | { type: "none"; permissions: Set<string> };

const BEARER = /^bearer\s+(\S+)\s*$/i;

function invalidToken(detail: string): ApiError {
  return new ApiError("invalid_token", detail, { headers: { "WWW-Authenticate": 'Bearer realm="api"' } });
}

/** A staff member's role is cached as briefly as an API key's credentials (lib/services/api-keys.ts). */
const CACHE_MS = 5_000;

async function authenticateKey(token: string): Promise<AuthContext> {
  const parsed = parseApiKey(token);
  if (!parsed) throw invalidToken("Authentication token is malformed or invalid.");
  if (parsed.environment !== config.environment) {
    throw invalidToken(
      `This is a ${parsed.environment} API key; this server is the ${config.environment} environment.`,
    );
  }
  const entry = await apiKeyCredentials(parsed.id);
  if (!entry || !hashesEqual(entry.secretHash, hashApiKey(token))) {
    throw invalidToken("Authentication token is invalid.");
  }
  if (entry.status === "revoked") throw invalidToken("Authentication token has been revoked.");
  if (entry.expiresAt && entry.expiresAt.getTime() <= Date.now())
    throw invalidToken("Authentication token has expired.");
  markApiKeyUsed(parsed.id, entry);
  return { type: "api_key", apiKeyId: parsed.id, permissions: entry.permissions };
}

export const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

function sessionCookie(request: Request): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    const name = part.slice(0, eq).trim();
    if (!SESSION_COOKIES.includes(name)) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return value; // a malformed escape: no session token, refused as such (401), not a 500
    }
  }
  return null;
}

/**
 * The dashboard's session may only be used from our own pages: a request whose browser says it
 * comes from another site (Sec-Fetch-Site, or an Origin that is not this host) is refused, and a
 * state-changing request must prove its origin.
 */
function assertSameOrigin(request: Request): void {
  const site = request.headers.get("sec-fetch-site");
  if (site && site !== "same-origin" && site !== "none") {
    throw new ApiError("forbidden", "Cross-site requests with a dashboard session are refused.");
  }
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (origin) {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw new ApiError("forbidden", "Cross-site requests with a dashboard session are refused.");
    }
    if (originHost !== host)
      throw new ApiError("forbidden", "Cross-site requests with a dashboard session are refused.");
  } else if (!site && request.method !== "GET" && request.method !== "HEAD") {
    throw new ApiError("forbidden", "A dashboard session request that changes data must come from the dashboard.");
  }
}

interface CachedUser {
  role: Role;
  fetchedAt: number;
}
const userCache = new Map<string, CachedUser>();

async function authenticateSession(token: string, request: Request): Promise<AuthContext> {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw invalidToken("Dashboard sessions are not configured.");
  let payload: Awaited<ReturnType<typeof decode>>;
  try {
    payload = await decode({ token, secret });
  } catch {
    payload = null;
  }
  const userId = payload && typeof payload.uid === "string" ? payload.uid : null;
  if (!userId) throw invalidToken("The dashboard session is invalid or has expired. Sign in again.");
  assertSameOrigin(request);
  // The role is read from the database (briefly cached), so a changed or removed login takes effect.
  let cached = userCache.get(userId);
  if (!cached || Date.now() - cached.fetchedAt > CACHE_MS) {
    const role = await userRole(userId);
    if (!role || !isRole(role)) throw invalidToken("The dashboard session's user no longer exists.");
    cached = { role, fetchedAt: Date.now() };
    userCache.set(userId, cached);
  }
  return { type: "session", userId, role: cached.role, permissions: rolePermissions(cached.role) };
}

const ANONYMOUS: AuthContext = { type: "none", permissions: new Set() };

/** Authenticates the request. With `required` false, a request with no credentials is let through. */
export async function authenticate(request: Request, required: boolean): Promise<AuthContext> {
  const header = request.headers.get("authorization");
  if (header !== null) {
    const key = BEARER.exec(header)?.[1];
    if (key === undefined) throw invalidToken("Authorization header must be `Bearer <API key>`.");
    return authenticateKey(key);
  }
  const cookie = sessionCookie(request);
  if (cookie) return authenticateSession(cookie, request);
  if (!required) return ANONYMOUS;
  throw invalidToken("Authentication header is missing. Send `Authorization: Bearer <API key>`.");
}

/**
 * 403 without `permission`. A staff member reads what their role cannot do ("Your role cannot
 * change customer data …"); an API key gets the API family's own sentence. Both name the permission.
 */
export function requirePermission(auth: AuthContext, permission: string): void {
  if (auth.permissions.has(permission)) return;
  if (auth.type === "session") {
    const [entity = permission, access] = permission.split(".");
    const verb = access === "write" ? "change" : "see";
    throw new ApiError(
      "forbidden",
      `Your role cannot ${verb} ${entity.replace(/_/g, " ")} data (it needs the ${permission} permission). Ask an owner for access.`,
    );
  }
  throw new ApiError(
    "forbidden",
    `You aren't permitted to perform this request: it needs the ${permission} permission.`,
  );
}
