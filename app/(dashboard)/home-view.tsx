"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/page-header";
import { PhraseText } from "@/components/phrase";
import { type ActivityNames, describeEvent, namesNeeded } from "@/lib/dashboard/activity-words";
import { api, type ListResponse, query } from "@/lib/dashboard/api";
import { entityPath, formatDateTime } from "@/lib/dashboard/display";
import { eventName } from "@/lib/dashboard/event-names";
import { addDays, lastPoint, revenueTotals, todayIn, useAccountTimeZone, useMetric } from "@/lib/dashboard/metrics";
import { settingsStepsDone, useAccountSettings } from "@/lib/dashboard/settings";
import { DEFAULT_CURRENCY_CODE } from "@/lib/schemas/account-settings";
import { Amount } from "./transactions/transaction-parts";

type Row = Record<string, unknown> & { id: string };

/**
 * One list request for a home card: its first rows and `estimated_total`. A list the signed-in
 * role may not read gives `forbidden` (the card is left out), not an error on the page.
 */
function useCount(path: string, params: Record<string, string | number | undefined>) {
  return useQuery({
    queryKey: ["home", path, params],
    queryFn: async () => {
      try {
        const list = await api<ListResponse<Row>>(`${path}${query(params)}`);
        return { rows: list.data, total: list.meta.pagination.estimated_total ?? list.data.length, allowed: true };
      } catch {
        return { rows: [] as Row[], total: 0, allowed: false };
      }
    },
  });
}

function Card({ title, children, href }: { title: string; children: ReactNode; href?: string }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm" aria-label={title}>
      <div className="flex items-baseline justify-between gap-2">
        <h2 className="text-sm font-medium text-slate-600">{title}</h2>
        {href && (
          <Link href={href} className="text-sm font-medium text-brand-700 hover:underline">
            View<span className="sr-only"> {title.toLowerCase()}</span>
          </Link>
        )}
      </div>
      <div className="mt-2">{children}</div>
    </section>
  );
}

function Figure({ children }: { children: ReactNode }) {
  return <p className="text-2xl font-semibold tabular-nums text-slate-900">{children}</p>;
}

function RevenueCards() {
  // Days in the account's time zone (Settings): "today" and "this month" are the merchant's.
  const zone = useAccountTimeZone();
  const today = todayIn(zone ?? "UTC");
  const monthStart = `${today.slice(0, 7)}-01`;
  const range = { from: monthStart, to: addDays(today, 1) };
  const revenue = useMetric("revenue", range);
  const mrr = useMetric("monthly-recurring-revenue", range);
  const subscribers = useMetric("active-subscribers", range);
  const todays = revenue.data?.timeseries.find((point) => point.timestamp.startsWith(today));
  const month = revenue.data ? revenueTotals(revenue.data) : null;
  const mrrNow = mrr.data ? lastPoint(mrr.data) : null;
  const subscribersNow = subscribers.data ? lastPoint(subscribers.data) : null;
  const currency = revenue.data?.currency_code ?? DEFAULT_CURRENCY_CODE;
  const loading = (
    <p className="h-8 w-24 animate-pulse rounded bg-slate-100">
      <span className="sr-only">Loading…</span>
    </p>
  );
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Card title="Revenue today" href="/metrics">
        {revenue.isPending ? (
          loading
        ) : (
          <Figure>
            <Amount amount={todays?.amount ?? "0"} currency={currency} />
          </Figure>
        )}
      </Card>
      <Card title="Revenue this month" href="/metrics">
        {month === null ? (
          loading
        ) : (
          <>
            <Figure>
              <Amount amount={month.amount} currency={currency} />
            </Figure>
            <p className="text-sm text-slate-600">
              {month.count} completed transaction{month.count === 1 ? "" : "s"}
            </p>
          </>
        )}
      </Card>
      {/* MRR and subscribers once there are subscriptions. */}
      {subscribersNow && subscribersNow.count > 0 && mrr.data && (
        <>
          <Card title="Monthly recurring revenue" href="/metrics">
            <Figure>
              <Amount amount={mrrNow?.amount ?? "0"} currency={mrr.data.currency_code} />
            </Figure>
          </Card>
          <Card title="Active subscribers" href="/subscriptions?status=active">
            <Figure>{subscribersNow.count.toLocaleString()}</Figure>
          </Card>
        </>
      )}
    </div>
  );
}

function Attention() {
  const pastDue = useCount("/transactions", { status: "past_due", per_page: 5, order_by: "id[DESC]" });
  const failed = useCount("/transactions", { payment_failed: "true", per_page: 5 });
  const webhooks = useCount("/notifications", { status: "failed", per_page: 5 });
  const items = [
    { query: pastDue, label: "Invoices past due", href: "/transactions?status=past_due" },
    { query: failed, label: "Failed payments", href: "/transactions?payment=failed" },
    { query: webhooks, label: "Webhook deliveries failed", href: "/notifications/log?status=failed" },
  ].filter((item) => item.query.data?.allowed !== false);
  const loaded = items.every((item) => item.query.data);
  const needing = items.filter((item) => (item.query.data?.total ?? 0) > 0);
  return (
    <Card title="Needs attention">
      {!loaded ? (
        <p className="text-sm text-slate-600">Checking…</p>
      ) : needing.length === 0 ? (
        <p className="text-sm text-slate-600">
          Nothing needs your attention: no past-due invoices, failed payments or failed webhooks.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {needing.map((item) => (
            <li key={item.label} className="flex items-center justify-between py-2 text-sm">
              <Link href={item.href} className="font-medium text-brand-700 hover:underline">
                {item.label}
              </Link>
              <span className="rounded-full bg-red-50 px-2 py-0.5 font-medium tabular-nums text-red-800">
                {item.query.data?.total}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** Where an event's entity lives in the dashboard, when it has a page. */
function entityHref(data: Record<string, unknown> | undefined): string | null {
  return typeof data?.id === "string" ? entityPath(data.id) : null;
}

/**
 * The names a page of events is said with: its transactions (with their customer and business, one
 * request) and its other customers (one request). A list the role may not read leaves names out.
 */
function useActivityNames(rows: Row[]) {
  const needed = namesNeeded(rows.map((row) => ({ event_type: String(row.event_type), data: row.data as any })));
  return useQuery({
    queryKey: ["home", "activity-names", needed],
    enabled: rows.length > 0,
    queryFn: async (): Promise<ActivityNames> => {
      const names: ActivityNames = { customers: new Map(), businesses: new Map(), invoices: new Map() };
      const read = async (path: string) => {
        try {
          return (await api<ListResponse<Row>>(path)).data;
        } catch {
          return [];
        }
      };
      const transactions = needed.transactions.length
        ? await read(
            `/transactions${query({ id: needed.transactions.join(","), include: "customer,business", per_page: 50 })}`,
          )
        : [];
      for (const t of transactions) {
        const customer = t.customer as { id: string; name: string | null; email: string } | undefined;
        const business = t.business as { id: string; name: string } | undefined;
        if (typeof t.invoice_number === "string") names.invoices.set(t.id, t.invoice_number);
        if (customer) names.customers.set(customer.id, customer.name || customer.email);
        if (business) names.businesses.set(business.id, business.name);
      }
      const missing = needed.customers.filter((id) => !names.customers.has(id));
      const customers = missing.length ? await read(`/customers${query({ id: missing.join(","), per_page: 50 })}`) : [];
      for (const c of customers) names.customers.set(c.id, String(c.name || c.email));
      return names;
    },
  });
}

const NO_NAMES: ActivityNames = { customers: new Map(), businesses: new Map(), invoices: new Map() };

function RecentActivity() {
  const events = useCount("/events", { per_page: 10 });
  const rows = events.data?.rows ?? [];
  const names = useActivityNames(rows);
  if (events.data && !events.data.allowed) return null;
  return (
    <Card title="Recent activity" href="/notifications/log">
      {events.isLoading ? (
        <p className="text-sm text-slate-600">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">
          Nothing yet. Activity appears here as customers, invoices and payments come in.
        </p>
      ) : (
        <ol className="divide-y divide-slate-100" aria-label="Recent events">
          {rows.map((event) => {
            const type = String(event.event_type);
            const data = event.data as Record<string, unknown> | undefined;
            const href = entityHref(data);
            const name = eventName(type);
            // In words once the names are in (the plain event name until then, and for events
            // without words of their own); the event type is on hover.
            const phrase =
              names.data || names.isError ? describeEvent({ event_type: type, data }, names.data ?? NO_NAMES) : null;
            return (
              <li
                key={String(event.event_id)}
                className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2 text-sm"
              >
                <span title={type} className="min-w-0 text-slate-900">
                  {phrase ? (
                    <PhraseText phrase={phrase} />
                  ) : href ? (
                    <Link href={href} className="font-medium hover:underline">
                      {name}
                    </Link>
                  ) : (
                    <span className="font-medium">{name}</span>
                  )}
                </span>
                <time className="text-slate-600" dateTime={String(event.occurred_at)}>
                  {formatDateTime(String(event.occurred_at))}
                </time>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}

/** The first steps of a new account, each done when the API says so. */
function Checklist() {
  const settings = useAccountSettings();
  const settingsDone = settings.data ? settingsStepsDone(settings.data) : undefined;
  const products = useCount("/products", { per_page: 1 });
  const keys = useCount("/api-keys", { per_page: 1, status: "active" });
  const destinations = useCount("/notification-settings", { per_page: 1 });
  const steps = [
    {
      label: "Add your business details (name, address, tax number), currency and time zone",
      done: settingsDone?.details,
      href: "/settings",
    },
    {
      label: "Upload your logo for invoices, checkout and emails",
      done: settingsDone?.logo,
      href: "/settings",
    },
    {
      label: "Choose how tax is charged",
      done: settingsDone?.taxMode,
      href: "/settings",
    },
    {
      label: "Create your first product and price",
      done: products.data && products.data.total > 0,
      href: "/catalogue",
    },
    {
      label: "Create an API key for your app",
      done: keys.data?.allowed === false ? undefined : keys.data && keys.data.total > 0,
      href: "/developers",
    },
    {
      label: "Add a webhook destination for events",
      done: destinations.data?.allowed === false ? undefined : destinations.data && destinations.data.total > 0,
      href: "/notifications",
    },
  ];
  if (steps.every((step) => step.done !== false)) return null;
  const done = steps.filter((step) => step.done).length;
  return (
    <Card title="Get started">
      <p className="mb-2 text-sm text-slate-600">
        {done} of {steps.length} done
      </p>
      <ul className="space-y-2">
        {steps.map((step) => (
          <li key={step.label} className="flex items-start gap-2 text-sm">
            <span aria-hidden="true" className={step.done ? "text-emerald-700" : "text-slate-500"}>
              {step.done ? "✓" : "○"}
            </span>
            {step.done ? (
              <span className="text-slate-600">
                {step.label}
                <span className="sr-only"> (done)</span>
              </span>
            ) : (
              <Link href={step.href} className="font-medium text-brand-700 hover:underline">
                {step.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function HomeView() {
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title="Home"
        description="Today at a glance: revenue, what needs attention, and the latest activity."
      />
      <Checklist />
      <RevenueCards />
      <div className="grid gap-4 lg:grid-cols-2">
        <Attention />
        <RecentActivity />
      </div>
    </div>
  );
}
