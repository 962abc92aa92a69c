"use client";

import { MetricChart, type MetricChartPoint } from "@/components/metric-chart";
import { lastPoint, NO_MOVEMENTS, sumAmounts, useMetric } from "@/lib/dashboard/metrics";
import { formatMoney } from "@/lib/dashboard/money";
import { DayTable, MetricSection } from "./metric-section";
import { combine, money, negative, type Range } from "./metric-values";

const MOVEMENTS = [
  { key: "new", name: "New", color: "#16a34a", sign: 1 },
  { key: "expansion", name: "Expansion", color: "#3b6ef5", sign: 1 },
  { key: "reactivation", name: "Reactivation", color: "#0891b2", sign: 1 },
  { key: "contraction", name: "Contraction", color: "#f59e0b", sign: -1 },
  { key: "churn", name: "Churn", color: "#dc2626", sign: -1 },
] as const;

export function MrrSection({ range, rangeLabel }: { range: Range; rangeLabel: string }) {
  const mrr = useMetric("monthly-recurring-revenue", range);
  const change = useMetric("monthly-recurring-revenue-change", range);
  const moves = useMetric("monthly-recurring-revenue-movements", range);
  const state = combine([mrr, change, moves]);
  const currency = mrr.data?.currency_code ?? "USD";
  const rows =
    mrr.data && moves.data
      ? mrr.data.timeseries.map((point, i) => ({
          day: point.timestamp.slice(0, 10),
          mrr: point.amount,
          change: change.data?.timeseries[i]?.amount ?? "0",
          ...(moves.data.timeseries[i] ?? NO_MOVEMENTS),
        }))
      : [];
  const points: MetricChartPoint[] = rows.map((row) => {
    const point: MetricChartPoint = {
      day: row.day,
      mrr: Number(row.mrr),
      labels: { mrr: formatMoney(row.mrr, currency) },
    };
    for (const m of MOVEMENTS) {
      point[m.key] = m.sign * Number(row[m.key]);
      point.labels[m.key] = formatMoney(m.sign < 0 ? negative(row[m.key]) : row[m.key], currency);
    }
    return point;
  });
  const sums = MOVEMENTS.map((m) => ({
    movement: m,
    sum: sumAmounts(moves.data?.timeseries.map((p) => p[m.key]) ?? []),
  }));
  return (
    <MetricSection
      id="mrr"
      title="Monthly recurring revenue"
      description={`${rangeLabel}, in ${currency}: MRR at the end of each day, then each day's movements. Active and past-due subscriptions, list prices normalised to a month, before discounts and tax.`}
      ready={state.ready}
      error={state.error}
      onRetry={state.retry}
      fetching={state.fetching}
      totals={[
        { label: "MRR", value: mrr.data ? formatMoney(lastPoint(mrr.data)?.amount ?? "0", currency) : "…" },
        {
          label: "Change vs a month before",
          value: change.data ? formatMoney(lastPoint(change.data)?.amount ?? "0", currency) : "…",
        },
        ...sums.map(({ movement: m, sum }) => ({
          label: m.name,
          value: formatMoney(m.sign < 0 ? negative(sum) : sum, currency),
        })),
      ]}
      chart={() => (
        <div className="space-y-4">
          <MetricChart
            label={`Monthly recurring revenue per day, in ${currency}`}
            points={points}
            format={money(currency)}
            height="h-64"
            series={[{ key: "mrr", name: "MRR", color: "#3b6ef5", kind: "line" }]}
          />
          <MetricChart
            label={`MRR movements per day, in ${currency}`}
            points={points}
            format={money(currency)}
            height="h-56"
            series={MOVEMENTS.map((m) => ({
              key: m.key,
              name: m.name,
              color: m.color,
              kind: "bar" as const,
              stack: "moves",
            }))}
          />
        </div>
      )}
      table={() => (
        <DayTable
          caption="Monthly recurring revenue per day"
          rows={rows}
          columns={[
            { header: "MRR", cell: (r) => formatMoney(r.mrr, currency) },
            { header: "Change vs a month before", cell: (r) => formatMoney(r.change, currency) },
            ...MOVEMENTS.map((m) => ({
              header: m.name,
              cell: (r: (typeof rows)[number]) => formatMoney(m.sign < 0 ? negative(r[m.key]) : r[m.key], currency),
            })),
          ]}
        />
      )}
    />
  );
}
