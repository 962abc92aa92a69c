/** Staff sign-in for the dashboard: next-auth with email and password, JWT sessions. */

import { randomBytes } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { config } from "../config.ts";
import { clientAddress } from "../http/client-address.ts";
import { recordSignIn as auditSignIn } from "../services/team/audit-log.ts";
import { findUserByEmail, recordSignIn } from "../services/users.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { SIGN_IN_THROTTLED } from "./sign-in-errors.ts";
import { purgeSignInLimits, recordSignInSuccess, reserveSignInAttempt } from "./sign-in-limits.ts";

const SESSION_HOURS = 12;

/** A sign-in refused for now by the limits of lib/auth/sign-in-limits.ts. */
export class SignInThrottledError extends Error {
  constructor(readonly retryAfterMs: number) {
    // next-auth hands this message to the sign-in page as `error`: "SignInThrottled:<seconds>".
    super(`${SIGN_IN_THROTTLED}:${Math.ceil(retryAfterMs / 1000)}`);
  }
}

/**
 * The hash an unknown email's password is checked against, so that it costs what a known one
 * does (about 100 ms of scrypt): without it, a fast "no" would tell which emails have a login.
 * Made once per process, in the background from the first import, with the current parameters.
 */
let dummyHash: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString("base64"));
  return dummyHash;
}
unknownUserHash().catch(() => {
  dummyHash = undefined;
});

/** Stale limit rows are purged on about one sign-in in PURGE_EVERY. */
const PURGE_EVERY = 50;

/**
 * Checks a staff login's email and password from `address` (lib/http/client-address.ts). Null
 * when they do not match; throws SignInThrottledError when the limits ask this attempt to wait.
 */
export async function verifyCredentials(emailInput: unknown, password: unknown, address = "unknown") {
  // Whatever the form posted: anything but two non-empty strings matches no login.
  if (typeof emailInput !== "string" || typeof password !== "string") return null;
  // No account has an email holding NUL, which PostgreSQL cannot even compare (a 500 otherwise).
  if (emailInput.includes("\u0000") || emailInput.length > 320) return null;
  const email = emailInput.trim().toLowerCase();
  if (!email || !password) return null;
  const wait = await reserveSignInAttempt(email, address);
  if (wait > 0) throw new SignInThrottledError(wait);
  if (Math.random() < 1 / PURGE_EVERY) purgeSignInLimits().catch(() => {});
  const user = await findUserByEmail(email);
  // Checked whether or not the login exists: the same work, the same time.
  const matches = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash()));
  if (!user || !matches) return null;
  await recordSignInSuccess(email, address);
  await recordSignIn(user.id);
  return user;
}

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: SESSION_HOURS * 3600 },
  // Secure cookies (with the __Secure- prefix) when people reach the server over https (PUBLIC_URL).
  useSecureCookies: config.publicUrl.startsWith("https://"),
  pages: { signIn: "/sign-in" },
  providers: [
    Credentials({
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, request) {
        const address = clientAddress(request?.headers ?? {});
        const user = await verifyCredentials(credentials?.email ?? "", credentials?.password ?? "", address);
        const email = typeof credentials?.email === "string" ? credentials.email : "";
        if (email && !email.includes("\u0000")) {
          const agent = (request?.headers as Record<string, string | undefined> | undefined)?.["user-agent"] ?? null;
          await auditSignIn(email, user, { clientAddress: address, userAgent: agent });
        }
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
