/**
 * Opening a portal link (lib/services/portal/access.ts): the token is checked, kept in the portal's
 * httpOnly cookie, and the browser goes on to `next` without the token. A link that does not hold
 * (expired, tampered, cut short, any bytes at all) leads to the page that says why, answered 410
 * or 403 (app/portal/link/problem-page.ts), and leaves any cookie as it was: a browser never gets
 * an error body in JSON.
 */
import { route } from "@/lib/http/route";
import { openPortalLink } from "@/lib/services/portal/access";

export const GET = route({ permission: "signed" }, ({ request }) => {
  const query = new URL(request.url).searchParams;
  return openPortalLink(query.get("token") ?? undefined, query.get("next") ?? undefined);
});

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
