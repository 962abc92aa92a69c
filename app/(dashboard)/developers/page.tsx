import { signedInPermissions } from "@/lib/auth/signed-in-staff";
import { DevelopersView } from "./developers-view";

export const metadata = { title: "Developers" };

export default async function DevelopersPage() {
  // A key can be given only what its creator holds (the API refuses more): the form offers just that.
  return <DevelopersView grantable={await signedInPermissions()} />;
}
