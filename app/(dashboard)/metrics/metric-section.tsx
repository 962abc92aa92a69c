"use client";

import { type ReactNode, useState } from "react";
import { Section } from "@/components/page-header";
import { formatDay } from "@/components/revenue-chart";
import { ScrollArea } from "@/components/scroll-area";
import { EmptyState, ErrorState, LoadingBlock } from "@/components/states";
import { segment } from "./range-picker";

export function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-5 py-4 shadow-sm">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
      {hint && <dd className="mt-0.5 text-xs text-slate-500">{hint}</dd>}
    </div>
  );
}

/** The totals of a section, in a row of small figures. */
export function Totals({ items }: { items: { label: string; value: string }[] }) {
  return (
    <dl className="mb-4 grid grid-cols-2 gap-x-6 gap-y-3 sm:grid-cols-3 lg:grid-cols-6">
      {items.map((item) => (
        <div key={item.label}>
          <dt className="text-xs font-medium text-slate-600">{item.label}</dt>
          <dd className="mt-0.5 text-base font-semibold text-slate-900 tabular-nums">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface Column<R> {
  header: string;
  cell: (row: R) => string;
  /** Left-aligned (text); numbers are right-aligned. */
  text?: boolean;
}

/** One row per day, every column the chart draws, exact as the API gave it. */
export function DayTable<R extends { day: string }>({
  caption,
  rows,
  columns,
}: {
  caption: string;
  rows: R[];
  columns: Column<R>[];
}) {
  return (
    <ScrollArea label={caption} className="max-h-[28rem] overflow-auto rounded-md border border-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-slate-50">
          <tr>
            <th scope="col" className="px-4 py-2 text-left font-medium whitespace-nowrap text-slate-700">
              Day
            </th>
            {columns.map((column) => (
              <th
                key={column.header}
                scope="col"
                className={`px-4 py-2 font-medium whitespace-nowrap text-slate-700 ${column.text ? "text-left" : "text-right"}`}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {rows.map((row) => (
            <tr key={row.day}>
              <th scope="row" className="px-4 py-2 text-left font-normal whitespace-nowrap text-slate-900">
                {formatDay(row.day, true)}
              </th>
              {columns.map((column) => (
                <td
                  key={column.header}
                  className={`px-4 py-2 whitespace-nowrap tabular-nums text-slate-900 ${column.text ? "text-left" : "text-right"}`}
                >
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

type View = "chart" | "table";

/** Chart or table: two pressed-or-not buttons in a group named by `legend`. */
export function ViewToggle({ legend, view, onChange }: { legend: string; view: View; onChange: (view: View) => void }) {
  return (
    <fieldset className="flex gap-1 rounded-lg border border-slate-200 p-1">
      <legend className="sr-only">{legend}</legend>
      {(["chart", "table"] as const).map((option) => (
        <button
          key={option}
          type="button"
          aria-pressed={view === option}
          className={segment(view === option)}
          onClick={() => onChange(option)}
        >
          {option === "chart" ? "Chart" : "Table"}
        </button>
      ))}
    </fieldset>
  );
}

/**
 * One metric: a section with its totals and a chart or a table of the same points, with loading,
 * error and empty states. `ready` is false until every query it needs has data.
 */
export function MetricSection({
  id,
  title,
  description,
  ready,
  error,
  onRetry,
  fetching,
  empty,
  totals,
  chart,
  table,
}: {
  id: string;
  title: string;
  description: string;
  ready: boolean;
  error: Error | null;
  onRetry: () => void;
  fetching: boolean;
  empty?: { title: string; description: string } | null;
  /** The section's own figures above the chart (none when the page shows them elsewhere). */
  totals: { label: string; value: string }[];
  chart: () => ReactNode;
  table: () => ReactNode;
}) {
  const [view, setView] = useState<View>("chart");
  return (
    <Section
      id={id}
      title={title}
      description={description}
      actions={<ViewToggle legend={`Show ${title.toLowerCase()} as`} view={view} onChange={setView} />}
    >
      {error && !ready ? (
        <ErrorState error={error} title={`Could not load ${title.toLowerCase()}`} onRetry={onRetry} />
      ) : !ready ? (
        <LoadingBlock label={`Loading ${title.toLowerCase()}…`} lines={6} />
      ) : (
        <div aria-busy={fetching} className={fetching ? "opacity-60" : undefined}>
          {totals.length > 0 && <Totals items={totals} />}
          {empty ? (
            <EmptyState title={empty.title} description={empty.description} />
          ) : view === "chart" ? (
            chart()
          ) : (
            table()
          )}
          {error && (
            <p role="alert" className="mt-3 text-sm text-red-700">
              Could not refresh: {error.message}
            </p>
          )}
        </div>
      )}
    </Section>
  );
}
