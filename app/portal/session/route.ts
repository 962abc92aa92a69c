/**
 * Opening a portal link (lib/services/portal/access.ts): the token is checked, kept in the portal's
 * httpOnly cookie, and the browser goes on to `next` without the token. A link that does not hold
 * leads to the page that says why (app/portal/link/page.tsx), and leaves any cookie as it was.
 */
import { route } from "@/lib/http/route";
import { portalOpenQuery } from "@/lib/schemas/portal";
import { openPortalLink } from "@/lib/services/portal/access";

export const GET = route({ permission: "signed", query: portalOpenQuery }, ({ input }) =>
  openPortalLink(input.query.token, input.query.next),
);

export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
