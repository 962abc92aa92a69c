"use client";

import { RevenueChart, type RevenuePoint } from "@/components/revenue-chart";
import { revenueTotals, useRevenueMetrics } from "@/lib/dashboard/metrics";
import { currencyName, formatMoney } from "@/lib/dashboard/money";
import { DayTable, MetricSection, Stat } from "./metric-section";

/** Revenue (GET /metrics/revenue): its totals and the revenue per day, as a chart or a table. */
export function RevenueSection({ range, rangeLabel }: { range: { from: string; to: string }; rangeLabel: string }) {
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

      <MetricSection
        id="revenue"
        title="Revenue per day"
        description={data ? `${rangeLabel}, in ${currency}` : rangeLabel}
        ready={data !== undefined}
        error={metrics.error}
        onRetry={() => metrics.refetch()}
        fetching={metrics.isPlaceholderData}
        empty={
          totals && totals.count === 0
            ? {
                title: "No revenue in this range",
                description:
                  "Completed transactions appear here on the day their payment was captured or their invoice was marked paid.",
              }
            : null
        }
        totals={[]}
        chart={() => <RevenueChart points={points} currency={currency} />}
        table={() => (
          <DayTable
            caption="Revenue per day"
            rows={points}
            columns={[
              { header: "Revenue", cell: (p) => formatMoney(p.amount, currency) },
              { header: "Completed transactions", cell: (p) => String(p.count) },
            ]}
          />
        )}
      />
    </>
  );
}
