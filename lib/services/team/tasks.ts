/**
 * The team's background job (graphile-worker; registered in lib/events/worker.ts): the daily
 * purge of audit log entries past their retention (a year).
 */
export const TEAM_TASKS = {
  /** Deletes audit log entries older than AUDIT_RETENTION_DAYS (lib/services/team/audit-log.ts). */
  purgeAuditLog: "purge_audit_log",
} as const;
