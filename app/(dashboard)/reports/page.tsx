import { signedInPermissions } from "@/lib/auth/signed-in-staff";
import { ReportsView } from "./reports-view";

export const metadata = { title: "Reports" };

export default async function ReportsPage() {
  // Viewers (report.read only) see and download reports; creating one needs report.write.
  const permissions = await signedInPermissions();
  return <ReportsView canCreate={permissions.includes("report.write")} />;
}
