"use client";

import { useState } from "react";
import { Section } from "@/components/page-header";
import { formatDay, RevenueChart, type RevenuePoint } from "@/components/revenue-chart";
import { ScrollArea } from "@/components/scroll-area";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/states";
import { revenueTotals, useRevenueMetrics } from "@/lib/dashboard/metrics";
import { currencyName, formatMoney } from "@/lib/dashboard/money";
import { Stat } from "./metric-section";
import { segment } from "./range-picker";

function RevenueTable({ points, currency }: { points: RevenuePoint[]; currency: string }) {
  return (
    <ScrollArea label="Revenue per day" className="max-h-[28rem] overflow-auto rounded-md border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Revenue per day</caption>
        <thead className="sticky top-0 bg-slate-50">
          <tr>
            <th scope="col" className="px-4 py-2 text-left font-medium text-slate-700">
              Day (UTC)
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium text-slate-700">
              Revenue
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium text-slate-700">
              Completed transactions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {points.map((point) => (
            <tr key={point.day}>
              <td className="px-4 py-2 text-slate-900">{formatDay(point.day, true)}</td>
              <td className="px-4 py-2 text-right tabular-nums text-slate-900">
                {formatMoney(point.amount, currency)}
              </td>
              <td className="px-4 py-2 text-right tabular-nums text-slate-700">{point.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

/** Revenue (GET /metrics/revenue): its totals and the revenue per day, as a chart or a table. */
export function RevenueSection({ range, rangeLabel }: { range: { from: string; to: string }; rangeLabel: string }) {
  const [view, setView] = useState<"chart" | "table">("chart");
  const metrics = useRevenueMetrics(range);
  const data = metrics.data;
  const points: RevenuePoint[] = (data?.timeseries ?? []).map((p) => ({
    day: p.timestamp.slice(0, 10),
    amount: p.amount,
    count: p.count,
  }));
  const totals = data ? revenueTotals(data) : null;
  const currency = data?.currency_code ?? "USD";

  return (
    <>
      <dl className="mb-6 grid gap-4 sm:grid-cols-2">
        <Stat
          label="Revenue"
          value={totals ? formatMoney(totals.amount, currency) : "…"}
          hint={data ? `${rangeLabel} · ${currencyName(currency)}` : rangeLabel}
        />
        <Stat label="Completed transactions" value={totals ? totals.count.toLocaleString() : "…"} hint={rangeLabel} />
      </dl>

      <Section
        title="Revenue per day"
        description={data ? `${rangeLabel}, in ${currency}` : rangeLabel}
        actions={
          <fieldset className="flex gap-1 rounded-lg border border-slate-200 p-1">
            <legend className="sr-only">Show as</legend>
            <button
              type="button"
              aria-pressed={view === "chart"}
              className={segment(view === "chart")}
              onClick={() => setView("chart")}
            >
              Chart
            </button>
            <button
              type="button"
              aria-pressed={view === "table"}
              className={segment(view === "table")}
              onClick={() => setView("table")}
            >
              Table
            </button>
          </fieldset>
        }
      >
        {metrics.error && !data ? (
          <ErrorState error={metrics.error} title="Could not load revenue" onRetry={() => metrics.refetch()} />
        ) : !data ? (
          <LoadingBlock label="Loading revenue…" lines={6} />
        ) : (
          <div aria-busy={metrics.isFetching} className={metrics.isPlaceholderData ? "opacity-60" : undefined}>
            {totals && totals.count === 0 ? (
              <EmptyState
                title="No revenue in this range"
                description="Completed transactions appear here on the day their payment was captured or their invoice was marked paid."
              />
            ) : view === "chart" ? (
              <RevenueChart points={points} currency={currency} />
            ) : (
              <RevenueTable points={points} currency={currency} />
            )}
            {metrics.error && (
              <p role="alert" className="mt-3 text-sm text-red-700">
                Could not refresh: {metrics.error.message}
              </p>
            )}
          </div>
        )}
      </Section>
    </>
  );
}
