/** Staff sign-in for the dashboard: next-auth with email and password, JWT sessions. */
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { db } from "../db.ts";
import { verifyPassword } from "./passwords.ts";

const SESSION_HOURS = 12;

/** A few failed sign-ins per email in a short window, then a pause: slows password guessing. */
const FAILURE_WINDOW_MS = 5 * 60_000;
const MAX_FAILURES = 10;
const failures = new Map<string, { count: number; since: number }>();

function tooManyFailures(email: string): boolean {
  const entry = failures.get(email);
  if (!entry) return false;
  if (Date.now() - entry.since > FAILURE_WINDOW_MS) {
    failures.delete(email);
    return false;
  }
  return entry.count >= MAX_FAILURES;
}

function recordFailure(email: string): void {
  const entry = failures.get(email);
  if (!entry || Date.now() - entry.since > FAILURE_WINDOW_MS) failures.set(email, { count: 1, since: Date.now() });
  else entry.count++;
}

export async function verifyCredentials(emailInput: unknown, password: unknown) {
  // The sign-in POST is NextAuth's, not checked by our route wrapper: anything may arrive. No
  // account has an email holding NUL, which PostgreSQL cannot even compare (a 500 otherwise).
  if (typeof emailInput !== "string" || typeof password !== "string") return null;
  if (emailInput.includes("\u0000") || emailInput.length > 320) return null;
  const email = emailInput.trim().toLowerCase();
  if (!email || !password || tooManyFailures(email)) return null;
  const user = await db().user.findUnique({ where: { email } });
  if (!user || !(await verifyPassword(password, user.passwordHash))) {
    recordFailure(email);
    return null;
  }
  failures.delete(email);
  await db().user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  return user;
}

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_HOURS * 3600 },
  pages: { signIn: "/sign-in" },
  providers: [
    Credentials({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials) {
        const user = await verifyCredentials(credentials?.email ?? "", credentials?.password ?? "");
        if (!user) return null;
        return { id: user.id, email: user.email, name: user.name, role: user.role };
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.role = (user as { role?: string }).role;
      }
      return token;
    },
    session({ session, token }) {
      return { ...session, user: { ...session.user, id: token.uid as string, role: token.role as string } };
    },
  },
};
