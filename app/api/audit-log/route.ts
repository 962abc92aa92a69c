import { listOfJson } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { listAuditLogQuery } from "@/lib/schemas/audit-log";
import { listAuditLog } from "@/lib/services/team/audit-log";

export const GET = route({ permission: "audit_log.read", query: listAuditLogQuery }, async ({ input }) =>
  listOfJson(await listAuditLog(input.query)),
);

// The log is written by the server alone.
export {
  methodNotAllowed as POST,
  methodNotAllowed as PUT,
  methodNotAllowed as PATCH,
  methodNotAllowed as DELETE,
} from "@/lib/http/route";
