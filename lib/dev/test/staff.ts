/**
 * A signed-in staff member for integration tests: a user row of the role and the dashboard's
 * session cookie for it (a next-auth JWT signed with the test NEXTAUTH_SECRET), with the headers
 * the dashboard's own pages send (same origin), as lib/http/auth.ts expects of a session.
 */
import { encode } from "next-auth/jwt";
import type { Role } from "../../auth/permissions.ts";
import { db } from "../../db/connection.ts";
import { newId } from "../../ids.ts";

export interface StaffSession {
  userId: string;
  /** Request headers: the session cookie plus the same-origin markers a browser sends. */
  headers: Record<string, string>;
}

export async function staffSession(role: Role): Promise<StaffSession> {
  const userId = newId("usr");
  await db().user.create({
    data: { id: userId, email: `${userId}@staff.example.com`, passwordHash: "scrypt$unused", role },
  });
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error("NEXTAUTH_SECRET is not set for tests");
  const token = await encode({ token: { uid: userId, role }, secret });
  return {
    userId,
    headers: {
      cookie: `next-auth.session-token=${token}`,
      host: "localhost:3000",
      origin: "http://localhost:3000",
      "sec-fetch-site": "same-origin",
    },
  };
}
