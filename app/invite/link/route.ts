/**
 * GET /invite/link?reason=…: where a team invitation link that does not hold leads
 * (app/invite/[token]/page.tsx), answered with a status that says so (decided here): a token that
 * names no invitation 404 (as POST /api/team/invites/accept answers), one already used or past its
 * 7 days 410 (it will not work again). The page is written by app/portal/link/problem-page.ts,
 * which says why it is not a Next.js page.
 */
import { problemPageResponse } from "@/app/portal/link/problem-page";

export const dynamic = "force-dynamic";

/** The texts of lib/services/team/invites.ts's refusals, which the API answers too. */
const PROBLEMS = {
  invalid: { status: 404, text: "This invitation link is not valid. Ask an owner for a new one." },
  used: { status: 410, text: "This invitation link has already been used. Sign in instead." },
  expired: { status: 410, text: "This invitation link has expired. Ask an owner for a new one." },
} as const;

export type InviteProblem = keyof typeof PROBLEMS;

export function GET(request: Request): Response {
  const reason = new URL(request.url).searchParams.get("reason");
  const problem = PROBLEMS[reason !== null && Object.hasOwn(PROBLEMS, reason) ? (reason as InviteProblem) : "invalid"];
  return problemPageResponse({
    status: problem.status,
    title: "Join the team",
    paragraphs: [problem.text],
    alert: true,
    action: { href: "/sign-in", label: "Go to sign-in" },
    testId: "invite-problem",
  });
}
