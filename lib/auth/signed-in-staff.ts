/**
 * The signed-in staff member's role and permissions, for server components that shape the
 * dashboard (the API decides for itself in lib/http/auth.ts). The role is read from the database,
 * as the API does, so a changed role shows on the next page rather than when the session is renewed.
 */
import { getServerSession } from "next-auth";
import { userRole } from "../services/users.ts";
import { authOptions } from "./next-auth.ts";
import { isRole, type Role, rolePermissions } from "./permissions.ts";

export async function signedInStaff(): Promise<{ role: Role; permissions: string[] } | null> {
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id;
  if (!userId) return null;
  const role = await userRole(userId);
  if (!role || !isRole(role)) return null;
  return { role, permissions: [...rolePermissions(role)].sort() };
}

/** The signed-in staff member's permissions; none when nobody (or a removed login) is signed in. */
export async function signedInPermissions(): Promise<string[]> {
  return (await signedInStaff())?.permissions ?? [];
}
