"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";
import { GlobalSearch, SearchButton } from "./global-search";

export const NAV_ITEMS = [
  { href: "/", label: "Home" },
  { href: "/catalogue", label: "Catalogue" },
  { href: "/customers", label: "Customers" },
  { href: "/transactions", label: "Transactions" },
  { href: "/subscriptions", label: "Subscriptions" },
  { href: "/notifications", label: "Notifications" },
  { href: "/emails", label: "Emails" },
  { href: "/metrics", label: "Metrics" },
  { href: "/reports", label: "Reports" },
  { href: "/developers", label: "Developers" },
  { href: "/settings", label: "Settings" },
  { href: "/team", label: "Team" },
  { href: "/audit-log", label: "Audit log" },
] as const;

/** The user, their role and Sign out. */
function Account({ user }: { user: { email: string; role: string } }) {
  return (
    <>
      <p className="truncate font-medium text-slate-900" title={user.email}>
        {user.email}
      </p>
      <p className="text-slate-500">{user.role}</p>
      <ul className="mt-2 space-y-1">
        <li>
          <Link href="/account" className="font-medium text-brand-600 hover:underline">
            Your account
          </Link>
        </li>
        <li>
          <a href="/docs/api" target="_blank" rel="noopener" className="font-medium text-brand-600 hover:underline">
            API reference<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
      </ul>
      <button
        type="button"
        onClick={() => signOut({ callbackUrl: "/sign-in" })}
        className="mt-2 text-sm font-medium text-brand-600 hover:underline"
      >
        Sign out
      </button>
    </>
  );
}

function NavLinks({ pathname }: { pathname: string }) {
  return (
    <nav aria-label="Main" className="flex-1 px-3">
      <ul className="space-y-1">
        {NAV_ITEMS.map((item) => {
          const active = pathname === item.href || (item.href !== "/" && pathname.startsWith(`${item.href}/`));
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
  );
}

function Brand({ environment }: { environment: string }) {
  return (
    <>
      <Link href="/" className="text-lg font-semibold text-slate-900">
        Billing
      </Link>
      <span
        className={`ml-2 rounded px-1.5 py-0.5 text-xs font-medium ${
          environment === "live" ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-800"
        }`}
      >
        {environment}
      </span>
    </>
  );
}

/**
 * The main navigation: a sidebar from tablet width up; on phones a bar across the top with a
 * Menu disclosure (it closes on navigation), and the page below it gets the whole width (the
 * dashboard's layout pads its <main> below the bar; a sibling selector from here broke when the
 * global search came between them and the bar covered every page's title). From tablet width the
 * sidebar stays in view on long pages (sticky, scrolling on its own when taller than the screen).
 */
export function Nav({ user, environment }: { user: { email: string; role: string }; environment: string }) {
  const pathname = usePathname();
  return (
    <>
      <aside className="hidden w-56 shrink-0 flex-col border-r border-slate-200 bg-white md:sticky md:top-0 md:flex md:h-screen md:overflow-y-auto">
        <div className="px-5 py-4">
          <Brand environment={environment} />
        </div>
        <div className="px-3 pb-3">
          <SearchButton className="w-full" />
        </div>
        <NavLinks pathname={pathname} />
        <div className="border-t border-slate-200 px-5 py-4 text-sm">
          <Account user={user} />
        </div>
      </aside>
      <header className="fixed inset-x-0 top-0 z-30 flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4 md:hidden">
        <div className="flex items-center">
          <Brand environment={environment} />
        </div>
        <div className="flex items-center gap-2">
          <SearchButton />
          <details key={pathname} className="relative">
            <summary className="cursor-pointer list-none rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800 [&::-webkit-details-marker]:hidden">
              Menu
            </summary>
            <div className="absolute right-0 mt-2 w-64 rounded-md border border-slate-200 bg-white py-3 shadow-lg">
              <NavLinks pathname={pathname} />
              <div className="mt-3 border-t border-slate-200 px-5 pt-3 text-sm">
                <Account user={user} />
              </div>
            </div>
          </details>
        </div>
      </header>
      <GlobalSearch />
    </>
  );
}
