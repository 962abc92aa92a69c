"use client";

import { type FormEvent, useId, useMemo, useState } from "react";
import { Button } from "@/components/button";
import { PageHeader, Section } from "@/components/page-header";
import { formatDay, RevenueChart, type RevenuePoint } from "@/components/revenue-chart";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/states";
import {
  apiRange,
  customRangeErrors,
  presetRange,
  RANGE_PRESETS,
  type RangePreset,
  revenueTotals,
  type ShownRange,
  useRevenueMetrics,
  utcDay,
} from "@/lib/client/metrics";
import { currencyName, formatMoney } from "@/lib/client/money";

type Choice = { kind: "preset"; preset: RangePreset } | { kind: "custom"; range: ShownRange };
type View = "chart" | "table";

const segment = (active: boolean) =>
  `rounded-md px-3 py-1.5 text-sm font-medium transition-colors ${
    active ? "bg-brand-600 text-white shadow-sm" : "text-slate-700 hover:bg-slate-100"
  }`;

const dateInput = (invalid: boolean) =>
  `rounded-md border bg-white px-2 py-1.5 text-sm ${invalid ? "border-red-500" : "border-slate-300"}`;

/** Custom from/to dates (both included), checked before anything is asked of the API. */
function CustomRange({ initial, onApply }: { initial: ShownRange; onApply: (range: ShownRange) => void }) {
  const id = useId();
  const [range, setRange] = useState(initial);
  const [errors, setErrors] = useState<{ first?: string; last?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = customRangeErrors(range);
    setErrors(found);
    if (!found.first && !found.last) onApply(range);
  };
  return (
    <form aria-label="Custom range" noValidate onSubmit={submit} className="flex flex-wrap items-start gap-3">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-from`} className="text-sm font-medium text-slate-700">
          From
        </label>
        <input
          id={`${id}-from`}
          type="date"
          value={range.first}
          onChange={(event) => setRange({ ...range, first: event.target.value })}
          aria-invalid={errors.first ? true : undefined}
          aria-describedby={errors.first ? `${id}-from-error` : undefined}
          className={dateInput(Boolean(errors.first))}
        />
        {errors.first && (
          <p id={`${id}-from-error`} className="text-xs text-red-700">
            {errors.first}
          </p>
        )}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-to`} className="text-sm font-medium text-slate-700">
          To (included)
        </label>
        <input
          id={`${id}-to`}
          type="date"
          value={range.last}
          onChange={(event) => setRange({ ...range, last: event.target.value })}
          aria-invalid={errors.last ? true : undefined}
          aria-describedby={errors.last ? `${id}-to-error` : undefined}
          className={dateInput(Boolean(errors.last))}
        />
        {errors.last && (
          <p id={`${id}-to-error`} className="text-xs text-red-700">
            {errors.last}
          </p>
        )}
      </div>
      <Button type="submit" variant="secondary" className="mt-6">
        Apply
      </Button>
    </form>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-5 py-4 shadow-sm">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
      {hint && <dd className="mt-0.5 text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}

function RevenueTable({ points, currency }: { points: RevenuePoint[]; currency: string }) {
  return (
    <div className="max-h-[28rem] overflow-auto rounded-md border border-slate-200">
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
    </div>
  );
}

export function RevenueView() {
  // The metrics' days are UTC days: "today" is today in UTC.
  const today = useMemo(() => utcDay(new Date()), []);
  const [choice, setChoice] = useState<Choice>({ kind: "preset", preset: "30d" });
  const [view, setView] = useState<View>("chart");
  const [customOpen, setCustomOpen] = useState(false);

  const shown = choice.kind === "preset" ? presetRange(choice.preset, today) : choice.range;
  const metrics = useRevenueMetrics(apiRange(shown));
  const data = metrics.data;
  const points: RevenuePoint[] = (data?.timeseries ?? []).map((p) => ({
    day: p.timestamp.slice(0, 10),
    amount: p.amount,
    count: p.count,
  }));
  const totals = data ? revenueTotals(data) : null;
  const currency = data?.currency_code ?? "USD";
  const rangeLabel = `${formatDay(shown.first, true)} – ${formatDay(shown.last, true)}`;

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Metrics"
        description="Revenue of completed transactions per day (UTC), net of tax and fees, before refunds and chargebacks. Other currencies are converted to your primary currency at the current rate."
      />

      <div className="mb-6 flex flex-wrap items-start gap-4">
        <fieldset className="flex flex-wrap items-center gap-1 rounded-lg border border-slate-200 bg-white p-1 shadow-sm">
          <legend className="sr-only">Date range</legend>
          {RANGE_PRESETS.map((preset) => (
            <button
              key={preset.id}
              type="button"
              aria-pressed={choice.kind === "preset" && choice.preset === preset.id}
              className={segment(choice.kind === "preset" && choice.preset === preset.id)}
              onClick={() => {
                setChoice({ kind: "preset", preset: preset.id });
                setCustomOpen(false);
              }}
            >
              {preset.label}
            </button>
          ))}
          <button
            type="button"
            aria-pressed={choice.kind === "custom" || customOpen}
            aria-expanded={customOpen}
            className={segment(choice.kind === "custom" || customOpen)}
            onClick={() => setCustomOpen(!customOpen)}
          >
            Custom
          </button>
        </fieldset>
        {customOpen && (
          <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
            <CustomRange initial={shown} onApply={(range) => setChoice({ kind: "custom", range })} />
          </div>
        )}
      </div>

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
    </div>
  );
}
