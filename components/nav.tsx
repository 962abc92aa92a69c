"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";

export const NAV_ITEMS = [
  { href: "/catalogue", label: "Catalogue" },
  { href: "/customers", label: "Customers" },
  { href: "/transactions", label: "Transactions" },
  { href: "/subscriptions", label: "Subscriptions" },
  { href: "/notifications", label: "Notifications" },
  { href: "/metrics", label: "Metrics" },
  { href: "/reports", label: "Reports" },
  { href: "/developers", label: "Developers" },
  { href: "/settings", label: "Settings" },
] as const;

export function Nav({ user, environment }: { user: { email: string; role: string }; environment: string }) {
  const pathname = usePathname();
  return (
    <aside className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white">
      <div className="px-5 py-4">
        <Link href="/customers" className="text-lg font-semibold text-slate-900">
          Billing
        </Link>
        <span
          className={`ml-2 rounded px-1.5 py-0.5 text-xs font-medium ${
            environment === "live" ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-800"
          }`}
        >
          {environment}
        </span>
      </div>
      <nav aria-label="Main" className="flex-1 px-3">
        <ul className="space-y-1">
          {NAV_ITEMS.map((item) => {
            const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={active ? "page" : undefined}
                  className={`block rounded-md px-3 py-2 text-sm font-medium ${
                    active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"
                  }`}
                >
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="border-t border-slate-200 px-5 py-4 text-sm">
        <p className="truncate font-medium text-slate-900" title={user.email}>
          {user.email}
        </p>
        <p className="text-slate-500">{user.role}</p>
        <button
          type="button"
          onClick={() => signOut({ callbackUrl: "/sign-in" })}
          className="mt-2 text-sm font-medium text-brand-600 hover:underline"
        >
          Sign out
        </button>
      </div>
    </aside>
  );
}
