import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { authOptions } from "@/lib/auth/next-auth";
import { signedInStaff } from "@/lib/auth/signed-in-staff";
import { config } from "@/lib/config";
import { PermissionsProvider } from "@/lib/dashboard/permissions";

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const session = await getServerSession(authOptions);
  if (!session?.user) redirect("/sign-in");
  const user = session.user as { email: string; role: string };
  // The role as the API sees it (the session's copy may be older): the dashboard offers what it allows.
  const staff = await signedInStaff();
  return (
    <Providers>
      <PermissionsProvider role={staff?.role ?? user.role} permissions={staff?.permissions ?? []}>
        <div className="flex min-h-screen">
          <Nav user={{ ...user, role: staff?.role ?? user.role }} environment={config.environment} />
          <main className="min-w-0 flex-1 overflow-x-auto px-8 py-6 max-md:px-4 max-md:pt-20">{children}</main>
        </div>
      </PermissionsProvider>
    </Providers>
  );
}
