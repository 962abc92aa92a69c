"use client";

import Link from "next/link";
import { Section } from "@/components/page-header";
import { customerTimeline, openInvoices, useCustomerOverview } from "@/lib/dashboard/customer-overview";
import { formatDateTime } from "@/lib/dashboard/display";
import { Amount } from "../../transactions/transaction-parts";

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

/**
 * The customer at a glance: lifetime spend (completed transactions, after refunds), what they owe
 * (issued invoices not yet paid), and a timeline of what happened.
 */
export function CustomerOverview({ customerId, createdAt }: { customerId: string; createdAt: string }) {
  const data = useCustomerOverview(customerId);
  const summary = data.data?.summary;
  const { open, pastDue } = openInvoices(summary);
  const moments = data.data ? customerTimeline(createdAt, data.data.txns, data.data.subs).slice(0, 20) : [];

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
