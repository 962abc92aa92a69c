/** Building blocks of the portal's pages (server-rendered). */
import Link from "next/link";
import type { ReactNode } from "react";
import type { CardDetails } from "@/lib/billing/payments";

const NAV = [
  { key: "overview", href: "/portal/overview", label: "Subscriptions" },
  { key: "payments", href: "/portal/payments", label: "Payments" },
  { key: "billing", href: "/portal/billing", label: "Billing details" },
] as const;

export function PortalNav({ current, email }: { current?: (typeof NAV)[number]["key"]; email: string }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <nav aria-label="Portal" className="flex flex-wrap gap-1">
        {NAV.map((item) => (
          <Link
            key={item.key}
            href={item.href}
            aria-current={item.key === current ? "page" : undefined}
            className={`rounded-md px-3 py-2 text-sm font-medium ${
              item.key === current
                ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-200"
                : "text-slate-700 hover:bg-white/70"
            }`}
          >
            {item.label}
          </Link>
        ))}
      </nav>
      <p className="truncate text-sm text-slate-600">
        Signed in as <span className="font-medium text-slate-800">{email}</span>
      </p>
    </div>
  );
}

export function Card({
  children,
  className = "",
  ...rest
}: { children: ReactNode; className?: string } & Record<string, unknown>) {
  return (
    <section className={`rounded-lg border border-slate-200 bg-white p-5 shadow-sm sm:p-6 ${className}`} {...rest}>
      {children}
    </section>
  );
}

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

/** "Dec 24, 2026" (UTC: the day the billing dates are on). */
export function dateText(iso: string | null | undefined): string {
  return iso ? dateFormat.format(new Date(iso)) : "—";
}

const BRANDS: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  american_express: "American Express",
  discover: "Discover",
  jcb: "JCB",
  diners_club: "Diners Club",
  union_pay: "UnionPay",
  maestro: "Maestro",
};

/** "Visa ending 4242 (expires 12/39)". */
export function cardText(card: CardDetails | null): string {
  if (!card) return "No card saved";
  const brand = BRANDS[card.type] ?? "Card";
  const month = String(card.expiry_month).padStart(2, "0");
  return `${brand} ending ${card.last4} (expires ${month}/${String(card.expiry_year).slice(-2)})`;
}

export const STATUS_TEXT: Record<string, string> = {
  active: "Active",
  trialing: "Free trial",
  past_due: "Payment failed",
  paused: "Paused",
  canceled: "Canceled",
  billed: "Awaiting payment",
  paid: "Paid",
  completed: "Paid",
};

export function NotFound() {
  return (
    <Card>
      <p className="text-sm text-slate-700">
        This subscription is not one of yours, or it no longer exists.{" "}
        <Link href="/portal/overview" className="font-medium text-brand-700 hover:underline">
          See your subscriptions
        </Link>
        .
      </p>
    </Card>
  );
}
