import { getServerSession } from "next-auth";
import { authOptions } from "@/lib/auth/next-auth";
import { TeamView } from "./team-view";

export const metadata = { title: "Team" };

export default async function TeamPage() {
  const session = await getServerSession(authOptions);
  return <TeamView selfId={(session?.user as { id?: string } | undefined)?.id} />;
}
