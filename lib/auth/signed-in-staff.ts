/**
 * The signed-in staff member's role and permissions, read from the database as the API does (a
 * changed role shows on the next page), for the dashboard layout's PermissionsProvider.
 */
import { getServerSession } from "next-auth";
import { db } from "../db/connection.ts";
import { authOptions } from "./next-auth.ts";
import { isRole, type Role, rolePermissions } from "./permissions.ts";

export async function signedInStaff(): Promise<{ role: Role; permissions: string[] } | null> {
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id;
  if (!userId) return null;
  const user = await db().user.findUnique({ where: { id: userId }, select: { role: true } });
  if (!user || !isRole(user.role)) return null;
  return { role: user.role, permissions: [...rolePermissions(user.role)].sort() };
}
