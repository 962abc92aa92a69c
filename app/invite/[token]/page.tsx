import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/passwords";
import { ApiError } from "@/lib/errors";
import { inviteToken, PASSWORD_MAX_LENGTH } from "@/lib/schemas/team";
import { describeInvite } from "@/lib/services/team/invites";
import type { InviteProblem } from "../link/route";
import { AcceptInviteForm } from "./accept-invite-form";

export const metadata: Metadata = { title: "Join the team", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

/**
 * Which refusal of describeInvite (lib/services/team/invites.ts) `error` is: it tells them apart
 * by their words only (all three are the API's 404 not_found).
 */
function problemOf(error: ApiError): InviteProblem {
  if (/already been used/.test(error.detail)) return "used";
  if (/expired/.test(error.detail)) return "expired";
  return "invalid";
}

/**
 * The page an invitation link opens: who it is for, and a password to set (the link works once).
 * A link that does not hold is sent to the page that says why, with a 4xx status
 * (app/invite/link/route.ts): a page answers 200 whatever it shows.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  let problem: InviteProblem = "invalid";
  let invite: { email: string; role: string } | null = null;
  if (inviteToken.safeParse(token).success) {
    try {
      invite = await describeInvite(token);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = problemOf(error);
    }
  }
  if (!invite) redirect(`/invite/link?reason=${problem}`);
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <h1 className="text-xl font-semibold">Join the team</h1>
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
      </div>
    </main>
  );
}
