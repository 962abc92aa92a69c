/**
 * Permissions of API keys and staff roles: `<entity>.read` / `<entity>.write`, write implies read.
 * The spec names a subset; this is the whole family we serve.
 */
export const PERMISSION_ENTITIES = [
  "customer",
  "address",
  "business",
  "product",
  "price",
  "discount",
  "discount_group",
  "transaction",
  "subscription",
  "payment_method",
  "customer_auth_token",
  "adjustment",
  "client_token",
  "checkout_domain",
  "payment_link",
  "customer_portal_session",
  "event",
  "notification",
  "notification_setting",
  "notification_simulation",
  "report",
  "api_key",
  "settings",
  "audit_log",
  "user",
] as const;

/** Entities that can only be read. */
const READ_ONLY = new Set<string>(["event", "metrics", "audit_log"]);
/** Entities that can only be written (nothing to read back). */
const WRITE_ONLY = new Set<string>(["customer_portal_session", "customer_auth_token"]);

export const PERMISSIONS: readonly string[] = [
  ...[...PERMISSION_ENTITIES, "metrics"].flatMap((entity) => {
    if (READ_ONLY.has(entity)) return [`${entity}.read`];
    if (WRITE_ONLY.has(entity)) return [`${entity}.write`];
    return [`${entity}.read`, `${entity}.write`];
  }),
].sort();

const KNOWN = new Set(PERMISSIONS);

export function isPermission(value: string): boolean {
  return KNOWN.has(value);
}

/** The set a key or role effectively has: every `x.write` adds `x.read`. */
export function expandPermissions(granted: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of granted) {
    out.add(p);
    if (p.endsWith(".write")) out.add(`${p.slice(0, -".write".length)}.read`);
  }
  return out;
}

/**
 * The permissions of `requested` that a caller holding `held` (already expanded) may not grant:
 * a key or a staff member can only hand out what it can do itself, so that `api_key.write` is
 * not a way up to every other permission. `x.read` is grantable with `x.write` held.
 */
export function ungrantablePermissions(held: ReadonlySet<string>, requested: Iterable<string>): string[] {
  return [...new Set(requested)].filter((p) => !held.has(p)).sort();
}

export const ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** What each role may do, in a sentence's words: the Team page and the invitation email say it. */
export const ROLE_HELP: Record<Role, string> = {
  owner: "everything, including the team",
  admin: "everything but the team",
  developer: "reads everything; manages API keys, tokens, checkout domains and notifications",
  viewer: "reads everything but API keys",
};

const DEVELOPER_WRITES = new Set([
  "api_key.write",
  "client_token.write",
  // Where client-side tokens may be used (lib/services/checkout-domains.ts): the same integration.
  "checkout_domain.write",
  "notification_setting.write",
  "notification_simulation.write",
  "notification.write",
]);

/** The team (who has a login, with which role): owners only. */
const OWNER_ONLY = new Set(["user.read", "user.write"]);
/** Who did what: owners and admins. */
const ADMIN_AND_UP = new Set(["audit_log.read"]);
const STAFF_ONLY = (p: string) => !OWNER_ONLY.has(p) && !ADMIN_AND_UP.has(p);

/**
 * Staff roles map onto the same permissions as keys. Owners can do everything; admins everything
 * but the team; developers read everything (but the team and the audit log) and manage the
 * integration (keys, tokens, checkout domains, notifications); viewers read the same but API keys.
 */
export function rolePermissions(role: Role): Set<string> {
  switch (role) {
    case "owner":
      return expandPermissions(PERMISSIONS);
    case "admin":
      return expandPermissions(PERMISSIONS.filter((p) => !OWNER_ONLY.has(p)));
    case "developer":
      return expandPermissions(
        PERMISSIONS.filter((p) => STAFF_ONLY(p) && (p.endsWith(".read") || DEVELOPER_WRITES.has(p))),
      );
    case "viewer":
      return expandPermissions(
        PERMISSIONS.filter((p) => STAFF_ONLY(p) && p.endsWith(".read") && !p.startsWith("api_key.")),
      );
  }
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
