"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export interface SubNavItem {
  href: string;
  label: string;
}

/**
 * The sections of an area (Catalogue: Products, Discounts, Discount groups) as a row of tabs. They
 * are links, so each section has its own address; the current one has aria-current="page" (also
 * on its detail pages).
 */
export function SubNav({ label, items }: { label: string; items: readonly SubNavItem[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="mb-6 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-x-6">
        {items.map((item) => {
          const active = pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={`inline-block border-b-2 px-1 pt-1 pb-2.5 text-sm font-medium ${
                  active
                    ? "border-brand-600 text-brand-700"
                    : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"
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
