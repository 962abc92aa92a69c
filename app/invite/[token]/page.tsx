import type { Metadata } from "next";
import Link from "next/link";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { ApiError } from "@/lib/errors";
import { inviteToken, PASSWORD_MAX_LENGTH } from "@/lib/schemas/team";
import { describeInvite } from "@/lib/services/team/invites";
import { AcceptInviteForm } from "./accept-invite-form";

export const metadata: Metadata = { title: "Join the team", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

/** The page an invitation link opens: who it is for, and a password to set (the link works once). */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let invite: { email: string; role: string } | null = null;
  let problem = "This invitation link is not valid. Ask an owner for a new one.";
  if (inviteToken.safeParse(token).success) {
    try {
      invite = await describeInvite(token);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = error.detail;
    }
  }
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Join the team</h1>
        {invite ? (
          <>
            <p className="mt-1 text-sm text-slate-600">
              You were invited as <strong>{invite.email}</strong> with the role <strong>{invite.role}</strong>. Choose a
              password to sign in with.
            </p>
            <AcceptInviteForm
              token={token}
              email={invite.email}
              minLength={PASSWORD_MIN_LENGTH}
              maxLength={PASSWORD_MAX_LENGTH}
            />
          </>
        ) : (
          <>
            <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {problem}
            </p>
            <Link href="/sign-in" className="mt-4 inline-block text-sm font-medium text-brand-700 hover:underline">
              Go to sign-in
            </Link>
          </>
        )}
      </div>
    </main>
  );
}
