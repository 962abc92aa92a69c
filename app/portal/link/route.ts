/**
 * GET /portal/link?reason=expired|invalid|missing: where a portal link or page that does not hold
 * leads (lib/services/portal/access.ts, app/portal/access.tsx). A page in words with a 4xx status
 * (410 expired, 403 otherwise): problem-page.ts says why it is written here and not as a page.
 */
import { linkProblem, portalProblemResponse } from "./problem-page";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return portalProblemResponse(linkProblem(new URL(request.url).searchParams.get("reason")));
}
