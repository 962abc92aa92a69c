import { AuditLogView } from "./audit-log-view";

export const metadata = { title: "Audit log" };

export default function AuditLogPage() {
  return <AuditLogView />;
}
