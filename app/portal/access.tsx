/**
 * Who the portal page is for (lib/services/portal/access.ts): a link's `?token=` goes through
 * /portal/session first (which keeps it in the portal's cookie and comes back without it); then
 * the cookie is checked on every page. Without a usable cookie the page shows why instead.
 *
 * Plain links (the management_urls of a key without customer_portal_session.write, or a portal
 * link whose token was cut off) have no token: they open the "open it from the merchant" page
 * below. That is what a customer expects of a link from an old email: the merchant's app or
 * latest email has a fresh one; we cannot sign anyone in (the merchant owns the customer's login).
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { PORTAL_COOKIE, portalAccess } from "@/lib/services/portal/access";
import { merchantName } from "@/lib/services/portal/data";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export type PortalGate = { customerId: string } | { problem: "missing" | "invalid" | "expired" };

/** The customer of this request, or why there is none; redirects a link that carries a token. */
export async function portalGate(path: string, searchParams: SearchParams): Promise<PortalGate> {
  const raw = (await searchParams).token;
  const token = Array.isArray(raw) ? raw[0] : raw;
  if (token !== undefined) {
    redirect(`/portal/session?${new URLSearchParams({ token, next: path })}`);
  }
  const access = await portalAccess((await cookies()).get(PORTAL_COOKIE)?.value);
  return access.ok ? { customerId: access.customerId } : { problem: access.reason };
}

const PROBLEMS = {
  missing: {
    title: "Open this page from your account",
    text: "To keep your billing details private, this page opens only from a secure link. Go to your account in the app of",
    after: "or use the billing link in their latest email, and open it from there.",
  },
  expired: {
    title: "This link has expired",
    text: "Secure billing links are valid for 24 hours. Go back to your account in the app of",
    after: "or to their latest email, and open the billing link again to get a new one.",
  },
  invalid: {
    title: "This link is not valid",
    text: "The link may have been cut short or changed when it was copied. Open it again from the app of",
    after: "or from their email, exactly as it was sent.",
  },
} as const;

export async function AccessProblem({ reason }: { reason: "missing" | "invalid" | "expired" }): Promise<ReactNode> {
  const merchant = await merchantName();
  const problem = PROBLEMS[reason];
  return (
    <section
      aria-labelledby="access-heading"
      data-testid={`portal-${reason}`}
      className="mx-auto max-w-xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h1 id="access-heading" className="text-xl font-semibold text-slate-900">
        {problem.title}
      </h1>
      <p className="mt-3 text-sm leading-6 text-slate-700">
        {problem.text} <strong>{merchant}</strong>, {problem.after}
      </p>
      <p className="mt-3 text-sm leading-6 text-slate-600">
        Nothing about your subscriptions or payments has changed. If you keep seeing this page, contact {merchant}.
      </p>
    </section>
  );
}
