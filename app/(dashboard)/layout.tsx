import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { authOptions } from "@/lib/auth/next-auth";
import { config } from "@/lib/config";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await getServerSession(authOptions);
  if (!session?.user) redirect("/sign-in");
  const user = session.user as { email: string; role: string };
  return (
    <Providers>
      <div className="flex min-h-screen">
        <Nav user={user} environment={config.environment} />
        <main className="flex-1 overflow-x-auto px-8 py-6">{children}</main>
      </div>
    </Providers>
  );
}
