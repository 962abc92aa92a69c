import { signedInPermissions } from "@/lib/auth/session-permissions";
import { DevelopersView } from "./developers-view";

export const metadata = { title: "Developers" };

export default async function DevelopersPage() {
  // A key can be given only what its creator holds (the API refuses more): the form offers just that.
  return <DevelopersView grantable={await signedInPermissions()} />;
}
