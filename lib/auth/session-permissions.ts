/**
 * What the signed-in staff member may do, for server components that shape the dashboard (the
 * API decides for itself in lib/http/auth.ts). The role is read from the database, as the API
 * does, so a changed role shows at once rather than when the session is renewed.
 */
import { getServerSession } from "next-auth";
import { userRole } from "../services/users.ts";
import { authOptions } from "./next-auth.ts";
import { isRole, rolePermissions } from "./permissions.ts";

export async function signedInPermissions(): Promise<string[]> {
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id;
  if (!userId) return [];
  const role = await userRole(userId);
  if (!role || !isRole(role)) return [];
  return [...rolePermissions(role)].sort();
}
