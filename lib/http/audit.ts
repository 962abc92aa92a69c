/**
 * The route wrapper's audit hook: a successful (2xx) state-changing request (POST, PATCH, PUT,
 * DELETE) by a staff member or an API key becomes one audit_log row (lib/services/team/audit-log.ts).
 * GETs, refusals and failures are not recorded; neither are idempotent replays (no new change).
 */
import { auditDetail } from "../services/team/audit-detail.ts";
import { answerEntityId, pathEntityId, recordAudit } from "../services/team/audit-log.ts";
import type { AuthContext } from "./auth.ts";
import { clientAddress } from "./client-address.ts";

const CHANGES = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/** What the wrapper learns while handling a request that the audit row needs. */
export interface AuditTrail {
  auth?: AuthContext;
  /** The answer's JSON (the `data` part), to name a created entity. */
  answer?: string;
  /** The request's body as received (parsed JSON), for what the change asked (audit-detail.ts). */
  body?: unknown;
}

/** POSTs that change nothing: previews (they compute and answer). */
const PREVIEW = /(^\/api\/pricing-preview|\/preview)\/?$/;

/** Whether a request authenticated as `auth` is one to record, if it succeeds. */
export function isAudited(request: Request, auth: AuthContext): boolean {
  if (!CHANGES.has(request.method) || (auth.type !== "session" && auth.type !== "api_key")) return false;
  return !PREVIEW.test(new URL(request.url).pathname);
}

export async function auditRequest(
  request: Request,
  requestId: string,
  status: number,
  trail: AuditTrail,
): Promise<void> {
  const auth = trail.auth;
  if (!auth || status < 200 || status > 299) return;
  if (auth.type !== "session" && auth.type !== "api_key") return;
  const pathname = new URL(request.url).pathname;
  await recordAudit({
    actorType: auth.type === "session" ? "user" : "api_key",
    actorId: auth.type === "session" ? auth.userId : auth.apiKeyId,
    action: `${request.method} ${pathname}`,
    entityId: pathEntityId(pathname) ?? (trail.answer ? answerEntityId(trail.answer) : null),
    status,
    requestId,
    clientAddress: clientAddress(request.headers),
    userAgent: request.headers.get("user-agent"),
    detail: auditDetail(pathname, trail.body, trail.answer),
  });
}
