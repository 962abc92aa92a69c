"use client";

import { useMemo } from "react";
import { MetricChart } from "@/components/metric-chart";
import { PageHeader } from "@/components/page-header";
import { formatDay } from "@/components/revenue-chart";
import { useUrlParams } from "@/components/url-state";
import {
  apiRange,
  churnPoints,
  lastPoint,
  NO_MOVEMENTS,
  percent,
  RANGE_PRESETS,
  type RangePreset,
  rateText,
  sumAmounts,
  todayIn,
  useAccountTimeZone,
  useMetric,
} from "@/lib/dashboard/metrics";
import { formatMoney } from "@/lib/dashboard/money";
import { DayTable, MetricSection, Stat } from "./metric-section";
import { combine, count, money, negative, type Range } from "./metric-values";
import { MrrSection } from "./mrr-section";
import { type Choice, RangePicker, shownRange } from "./range-picker";
import { RevenueSection } from "./revenue-view";

function SubscribersSection({ range, rangeLabel }: { range: Range; rangeLabel: string }) {
  const active = useMetric("active-subscribers", range);
  const moves = useMetric("monthly-recurring-revenue-movements", range);
  const state = combine([active, moves]);
  const rows =
    active.data && moves.data
      ? active.data.timeseries.map((p, i) => ({
          day: p.timestamp.slice(0, 10),
          count: p.count,
          ...(moves.data.timeseries[i] ?? NO_MOVEMENTS),
        }))
      : [];
  const total = (key: "new_subscribers" | "reactivated_subscribers" | "churned_subscribers") =>
    (moves.data?.timeseries ?? []).reduce((sum, p) => sum + p[key], 0);
  return (
    <MetricSection
      id="active-subscribers"
      title="Active subscribers"
      description={`${rangeLabel}: subscribers with an active or past-due subscription at the end of each day (trials excluded).`}
      ready={state.ready}
      error={state.error}
      onRetry={state.retry}
      fetching={state.fetching}
      totals={[
        {
          label: "Active subscribers",
          value: (lastPoint(active.data ?? { timeseries: [] })?.count ?? 0).toLocaleString(),
        },
        { label: "At the start", value: (moves.data?.active_subscribers_at_start ?? 0).toLocaleString() },
        { label: "New", value: total("new_subscribers").toLocaleString() },
        { label: "Reactivated", value: total("reactivated_subscribers").toLocaleString() },
        { label: "Churned", value: total("churned_subscribers").toLocaleString() },
      ]}
      chart={() => (
        <MetricChart
          label="Active subscribers per day"
          points={rows.map((r) => ({ day: r.day, count: r.count, labels: { count: r.count.toLocaleString() } }))}
          format={count}
          series={[{ key: "count", name: "Active subscribers", color: "#3b6ef5", kind: "line" }]}
        />
      )}
      table={() => (
        <DayTable
          caption="Active subscribers per day"
          rows={rows}
          columns={[
            { header: "Active subscribers", cell: (r) => r.count.toLocaleString() },
            { header: "New", cell: (r) => r.new_subscribers.toLocaleString() },
            { header: "Reactivated", cell: (r) => r.reactivated_subscribers.toLocaleString() },
            { header: "Churned", cell: (r) => r.churned_subscribers.toLocaleString() },
          ]}
        />
      )}
    />
  );
}

function ChurnSection({ range, rangeLabel }: { range: Range; rangeLabel: string }) {
  const active = useMetric("active-subscribers", range);
  const moves = useMetric("monthly-recurring-revenue-movements", range);
  const state = combine([active, moves]);
  const rows = active.data && moves.data ? churnPoints(moves.data, active.data) : [];
  const churned = rows.reduce((sum, r) => sum + r.churned, 0);
  const atStart = moves.data?.active_subscribers_at_start ?? 0;
  const currency = moves.data?.currency_code ?? "USD";
  return (
    <MetricSection
      id="churn"
      title="Churn rate"
      description={`${rangeLabel}: subscribers who canceled or paused each day, against those active when the day began.`}
      ready={state.ready}
      error={state.error}
      onRetry={state.retry}
      fetching={state.fetching}
      totals={[
        { label: "Churn rate", value: percent(churned, atStart) },
        { label: "Churned subscribers", value: churned.toLocaleString() },
        { label: "Active at the start", value: atStart.toLocaleString() },
        {
          label: "MRR churned",
          value: formatMoney(negative(sumAmounts(moves.data?.timeseries.map((p) => p.churn) ?? [])), currency),
        },
      ]}
      chart={() => (
        <MetricChart
          label="Churn rate per day"
          points={rows.map((r) => ({
            day: r.day,
            rate: r.activeAtStart > 0 ? (100 * r.churned) / r.activeAtStart : 0,
            labels: { rate: `${percent(r.churned, r.activeAtStart, 2)} (${r.churned} of ${r.activeAtStart})` },
          }))}
          format={(v) => `${v.toFixed(1)}%`}
          series={[{ key: "rate", name: "Churn rate", color: "#dc2626", kind: "bar" }]}
        />
      )}
      table={() => (
        <DayTable
          caption="Churn rate per day"
          rows={rows}
          columns={[
            { header: "Churned", cell: (r) => r.churned.toLocaleString() },
            { header: "Active at the start", cell: (r) => r.activeAtStart.toLocaleString() },
            { header: "Churn rate", cell: (r) => percent(r.churned, r.activeAtStart, 2) },
          ]}
        />
      )}
    />
  );
}

function RefundsSection({ range, rangeLabel }: { range: Range; rangeLabel: string }) {
  const refunds = useMetric("refunds", range);
  const chargebacks = useMetric("chargebacks", range);
  const state = combine([refunds, chargebacks]);
  const currency = refunds.data?.currency_code ?? "USD";
  const rows =
    refunds.data && chargebacks.data
      ? refunds.data.timeseries.map((p, i) => ({
          day: p.timestamp.slice(0, 10),
          amount: p.amount,
          chargebacks: chargebacks.data.timeseries[i]?.count ?? 0,
        }))
      : [];
  const total = sumAmounts(rows.map((r) => r.amount));
  const chargebackCount = rows.reduce((sum, r) => sum + r.chargebacks, 0);
  return (
    <MetricSection
      id="refunds"
      title="Refunds and chargebacks"
      description={`${rangeLabel}, in ${currency}: approved refunds per day (what went back to customers), and chargebacks received (right axis).`}
      ready={state.ready}
      error={state.error}
      onRetry={state.retry}
      fetching={state.fetching}
      empty={
        state.ready && total === "0" && chargebackCount === 0
          ? {
              title: "No refunds or chargebacks in this range",
              description: "Refunds count on the day they are approved.",
            }
          : null
      }
      totals={[
        { label: "Refunds", value: formatMoney(total, currency) },
        { label: "Chargebacks", value: chargebackCount.toLocaleString() },
      ]}
      chart={() => (
        <MetricChart
          label={`Refunds per day, in ${currency}`}
          points={rows.map((r) => ({
            day: r.day,
            amount: Number(r.amount),
            chargebacks: r.chargebacks,
            labels: { amount: formatMoney(r.amount, currency), chargebacks: String(r.chargebacks) },
          }))}
          format={money(currency)}
          formatRight={count}
          series={[
            { key: "amount", name: "Refunds", color: "#f59e0b", kind: "bar" },
            { key: "chargebacks", name: "Chargebacks", color: "#dc2626", kind: "line", right: true },
          ]}
        />
      )}
      table={() => (
        <DayTable
          caption="Refunds and chargebacks per day"
          rows={rows}
          columns={[
            { header: "Refunds", cell: (r) => formatMoney(r.amount, currency) },
            { header: "Chargebacks", cell: (r) => r.chargebacks.toLocaleString() },
          ]}
        />
      )}
    />
  );
}

function CheckoutSection({ range, rangeLabel }: { range: Range; rangeLabel: string }) {
  const conversion = useMetric("checkout-conversion", range);
  const state = combine([conversion]);
  const rows = (conversion.data?.timeseries ?? []).map((p) => ({ day: p.timestamp.slice(0, 10), ...p }));
  const opened = rows.reduce((sum, r) => sum + r.count, 0);
  const completed = rows.reduce((sum, r) => sum + r.completed_count, 0);
  return (
    <MetricSection
      id="checkout-conversion"
      title="Checkout conversion"
      description={`${rangeLabel}: checkouts opened each day, and how many of them were paid (whenever that was).`}
      ready={state.ready}
      error={state.error}
      onRetry={state.retry}
      fetching={state.fetching}
      empty={
        state.ready && opened === 0
          ? {
              title: "No checkouts in this range",
              description: "A checkout counts on the day its transaction was created.",
            }
          : null
      }
      totals={[
        { label: "Conversion rate", value: percent(completed, opened) },
        { label: "Checkouts opened", value: opened.toLocaleString() },
        { label: "Completed", value: completed.toLocaleString() },
      ]}
      chart={() => (
        <MetricChart
          label="Checkouts per day"
          points={rows.map((r) => ({
            day: r.day,
            count: r.count,
            completed: r.completed_count,
            rate: r.count > 0 ? (100 * r.completed_count) / r.count : 0,
            labels: { count: String(r.count), completed: String(r.completed_count), rate: rateText(r.rate) },
          }))}
          format={count}
          formatRight={(v) => `${Math.round(v)}%`}
          series={[
            { key: "count", name: "Opened", color: "#94a3b8", kind: "bar" },
            { key: "completed", name: "Completed", color: "#16a34a", kind: "bar" },
            { key: "rate", name: "Conversion rate", color: "#7c3aed", kind: "line", right: true },
          ]}
        />
      )}
      table={() => (
        <DayTable
          caption="Checkouts per day"
          rows={rows}
          columns={[
            { header: "Opened", cell: (r) => r.count.toLocaleString() },
            { header: "Completed", cell: (r) => r.completed_count.toLocaleString() },
            { header: "Conversion rate", cell: (r) => rateText(r.rate) },
          ]}
        />
      )}
    />
  );
}

/** The figures at the end of the range, above the charts. */
function Summary({ range, rangeLabel }: { range: Range; rangeLabel: string }) {
  const mrr = useMetric("monthly-recurring-revenue", range);
  const active = useMetric("active-subscribers", range);
  const currency = mrr.data?.currency_code ?? "USD";
  const end = lastPoint(mrr.data ?? { timeseries: [] });
  const endDay = end ? formatDay(end.timestamp.slice(0, 10), true) : rangeLabel;
  return (
    <dl className="mb-6 grid gap-4 sm:grid-cols-2">
      <Stat
        label="Monthly recurring revenue"
        value={mrr.data ? formatMoney(end?.amount ?? "0", currency) : "…"}
        hint={`At the end of ${endDay}`}
      />
      <Stat
        label="Active subscribers"
        value={active.data ? (lastPoint(active.data)?.count ?? 0).toLocaleString() : "…"}
        hint={`At the end of ${endDay}`}
      />
    </dl>
  );
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The range in the address: `?range=7d`, or `?from=YYYY-MM-DD&to=YYYY-MM-DD`; the last 30 days otherwise. */
function choiceFromParams(params: URLSearchParams): Choice {
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  if (DAY_PATTERN.test(from) && DAY_PATTERN.test(to) && from <= to) {
    return { kind: "custom", range: { first: from, last: to } };
  }
  const preset = RANGE_PRESETS.find((p) => p.id === params.get("range"))?.id as RangePreset | undefined;
  return { kind: "preset", preset: preset ?? "30d" };
}

export function MetricsView() {
  // Days in the account's time zone (Settings): "today" is today there.
  const zone = useAccountTimeZone();
  const today = useMemo(() => todayIn(zone ?? "UTC"), [zone]);
  const [params, setParams] = useUrlParams();
  const choice = choiceFromParams(params);
  const setChoice = (next: Choice) =>
    setParams(
      next.kind === "preset"
        ? { range: next.preset === "30d" ? undefined : next.preset, from: undefined, to: undefined }
        : { range: undefined, from: next.range.first, to: next.range.last },
    );
  const shown = shownRange(choice, today);
  const range = apiRange(shown);
  const rangeLabel = `${formatDay(shown.first, true)} – ${formatDay(shown.last, true)}`;

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Metrics"
        description={`Per day in ${zone ?? "UTC"} (Settings → time zone). Amounts in other currencies are converted to your primary currency at the current rate. Revenue is net of tax and fees, before refunds and chargebacks.`}
      />
      <RangePicker choice={choice} onChange={setChoice} today={today} />
      <Summary range={range} rangeLabel={rangeLabel} />
      <div className="space-y-6">
        <MrrSection range={range} rangeLabel={rangeLabel} />
        <SubscribersSection range={range} rangeLabel={rangeLabel} />
        <ChurnSection range={range} rangeLabel={rangeLabel} />
        <div>
          <RevenueSection range={range} rangeLabel={rangeLabel} />
        </div>
        <RefundsSection range={range} rangeLabel={rangeLabel} />
        <CheckoutSection range={range} rangeLabel={rangeLabel} />
      </div>
    </div>
  );
}
