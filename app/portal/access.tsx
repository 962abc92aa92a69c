/**
 * Who the portal page is for (lib/services/portal/access.ts): a link's `?token=` goes through
 * /portal/session first (which keeps it in the portal's cookie and comes back without it); then
 * the cookie is checked on every page. Without a usable cookie the browser is sent to
 * /portal/link, which says why with a 4xx status (app/portal/link/problem-page.ts): a page of the
 * App Router can only answer 200.
 *
 * Plain links (the management_urls of a key without customer_portal_session.write, or a portal
 * link whose token was cut off) have no token: they lead to the "open it from the merchant" page.
 * That is what a customer expects of a link from an old email: the merchant's app or latest email
 * has a fresh one; we cannot sign anyone in (the merchant owns the customer's login).
 */
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { PORTAL_COOKIE, portalAccess } from "@/lib/services/portal/access";

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export interface PortalGate {
  customerId: string;
}

/**
 * The customer of this request; redirects a link that carries a token (to keep it), and a request
 * without a usable cookie (to the page that says why).
 */
export async function portalGate(path: string, searchParams: SearchParams): Promise<PortalGate> {
  const raw = (await searchParams).token;
  const token = Array.isArray(raw) ? raw[0] : raw;
  if (token !== undefined) {
    redirect(`/portal/session?${new URLSearchParams({ token, next: path })}`);
  }
  const access = await portalAccess((await cookies()).get(PORTAL_COOKIE)?.value);
  if (!access.ok) redirect(`/portal/link?reason=${access.reason}`);
  return { customerId: access.customerId };
}
