/** Daily: audit log entries older than a year are deleted (lib/services/team/audit-log.ts). */
import { z } from "zod";
import { defineJob } from "./job.ts";

export const purgeAuditLogJob = defineJob({
  id: "purge_audit_log",
  payload: z.object({}),
  schedule: "43 3 * * *",
});
