import { DevelopersView } from "./developers-view";

export const metadata = { title: "Developers" };

export default function DevelopersPage() {
  return <DevelopersView />;
}
