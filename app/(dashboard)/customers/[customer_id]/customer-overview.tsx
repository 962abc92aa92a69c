"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Section } from "@/components/page-header";
import { api, type ListResponse, query } from "@/lib/dashboard/api";
import { formatDateTime } from "@/lib/dashboard/display";
import { formatMoney } from "@/lib/dashboard/money";
import type { CustomerSummary } from "@/lib/schemas/customer";
import { Amount } from "../../transactions/transaction-parts";

interface Txn {
  id: string;
  status: string;
  origin: string;
  invoice_number: string | null;
  currency_code: string;
  created_at: string;
  billed_at: string | null;
  details: { totals: { grand_total: string; balance: string }; adjusted_totals?: { grand_total: string } };
  payments: { status?: string; captured_at?: string | null; amount?: string }[];
}

interface Sub {
  id: string;
  status: string;
  started_at: string | null;
  canceled_at: string | null;
  paused_at: string | null;
  created_at: string;
}

/** The timeline is made of the customer's latest transactions and subscriptions (one page each). */
const TIMELINE_PAGE = 50;

async function latest<T>(path: string, params: Record<string, string>): Promise<T[]> {
  return (await api<ListResponse<T>>(`${path}${query({ ...params, per_page: TIMELINE_PAGE })}`)).data;
}

type Sum = { currency_code: string; amount: string };

function Sums({ sums, empty }: { sums: Sum[]; empty: string }) {
  const entries = sums.filter((sum) => BigInt(sum.amount) !== 0n);
  if (entries.length === 0) return <span className="text-slate-600">{empty}</span>;
  return (
    <span className="flex flex-col">
      {entries.map((sum) => (
        <Amount key={sum.currency_code} amount={sum.amount} currency={sum.currency_code} />
      ))}
    </span>
  );
}

interface Moment {
  at: string;
  text: string;
  href?: string;
}

/** What happened to the customer, newest first, in words: from their transactions and subscriptions. */
function timeline(created: string, txns: Txn[], subs: Sub[]): Moment[] {
  const moments: Moment[] = [{ at: created, text: "Became a customer" }];
  for (const t of txns) {
    const name = t.invoice_number ? `Invoice ${t.invoice_number}` : "Transaction";
    const href = `/transactions/${t.id}`;
    const total = formatMoney(t.details.totals.grand_total, t.currency_code);
    if (t.billed_at) moments.push({ at: t.billed_at, text: `${name} issued for ${total}`, href });
    else moments.push({ at: t.created_at, text: `${name} created for ${total}`, href });
    for (const payment of t.payments) {
      if (payment.status === "captured" && payment.captured_at) {
        moments.push({ at: payment.captured_at, text: `Paid ${total} (${name.toLowerCase()})`, href });
      }
    }
    if (t.status === "past_due") moments.push({ at: t.billed_at ?? t.created_at, text: `${name} is past due`, href });
  }
  for (const s of subs) {
    const href = `/subscriptions/${s.id}`;
    moments.push({ at: s.started_at ?? s.created_at, text: "Subscription started", href });
    if (s.paused_at) moments.push({ at: s.paused_at, text: "Subscription paused", href });
    if (s.canceled_at) moments.push({ at: s.canceled_at, text: "Subscription canceled", href });
  }
  return moments.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/**
 * The customer at a glance: lifetime spend (completed transactions, after refunds), what they owe
 * (issued invoices not yet paid), and a timeline of what happened.
 */
export function CustomerOverview({ customerId, createdAt }: { customerId: string; createdAt: string }) {
  const data = useQuery({
    queryKey: ["transactions", "list", "customer-overview", customerId],
    queryFn: async () => {
      const [summary, txns, subs] = await Promise.all([
        api<{ data: CustomerSummary }>(`/customers/${customerId}/summary`),
        latest<Txn>("/transactions", { customer_id: customerId, order_by: "id[DESC]" }),
        latest<Sub>("/subscriptions", { customer_id: customerId, order_by: "id[DESC]" }).catch(() => [] as Sub[]),
      ]);
      return { summary: summary.data, txns, subs };
    },
  });
  const summary = data.data?.summary;
  const open = summary?.amount_due.reduce((count, due) => count + due.transactions, 0) ?? 0;
  const pastDue = summary?.amount_due.some((due) => due.past_due > 0) ?? false;
  const moments = data.data ? timeline(createdAt, data.data.txns, data.data.subs).slice(0, 20) : [];

  return (
    <Section title="Overview" description="Lifetime spend, what the customer owes, and what happened lately.">
      {data.isLoading ? (
        <p className="text-sm text-slate-600" role="status">
          Loading…
        </p>
      ) : data.error ? (
        <p className="text-sm text-slate-600">The overview could not be loaded.</p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-3">
          <dl className="grid grid-cols-2 gap-4 lg:col-span-1 lg:grid-cols-1">
            <div>
              <dt className="text-sm text-slate-600">Lifetime spend</dt>
              <dd className="text-xl font-semibold text-slate-900">
                <Sums sums={summary?.lifetime_spend ?? []} empty="Nothing yet" />
              </dd>
            </div>
            <div>
              <dt className="text-sm text-slate-600">Amount due</dt>
              <dd className="text-xl font-semibold text-slate-900">
                <Sums sums={summary?.amount_due ?? []} empty="Nothing due" />
              </dd>
              {open > 0 && (
                <dd className="text-sm text-slate-600">
                  {open} open invoice{open === 1 ? "" : "s"}
                  {pastDue ? ", past due" : ""}
                </dd>
              )}
            </div>
            <div>
              <dt className="text-sm text-slate-600">Transactions</dt>
              <dd className="text-xl font-semibold text-slate-900 tabular-nums">{summary?.transactions ?? 0}</dd>
            </div>
          </dl>
          <div className="lg:col-span-2">
            <h3 className="mb-2 text-sm font-medium text-slate-600">Activity</h3>
            <ol aria-label="Customer activity" className="divide-y divide-slate-100">
              {moments.map((moment) => (
                <li key={`${moment.at}-${moment.text}`} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                  {moment.href ? (
                    <Link href={moment.href} className="font-medium text-brand-700 hover:underline">
                      {moment.text}
                    </Link>
                  ) : (
                    <span className="font-medium text-slate-900">{moment.text}</span>
                  )}
                  <time dateTime={moment.at} className="text-slate-600">
                    {formatDateTime(moment.at)}
                  </time>
                </li>
              ))}
            </ol>
          </div>
        </div>
      )}
    </Section>
  );
}
