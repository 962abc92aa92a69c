import { listOfJson } from "@/lib/http/pagination";
import { paginated, route } from "@/lib/http/route";
import { auditLogEntry, listAuditLogQuery } from "@/lib/schemas/audit-log";
import { listAuditLog } from "@/lib/services/team/audit-log";

export const GET = route(
  {
    summary: "List the audit log: who changed what, when and from where (ours).",
    response: paginated(auditLogEntry),
    permission: "audit_log.read",
    query: listAuditLogQuery,
  },
  async ({ input }) => listOfJson(await listAuditLog(input.query)),
);

// The log is written by the server alone.
export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
