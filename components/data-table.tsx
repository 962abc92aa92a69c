import type { ReactNode } from "react";
import { ScrollArea } from "./scroll-area";
import { ErrorState, Skeleton } from "./states";

export interface Column<T> {
  /** Unique within the table. */
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Classes for the body cells and the header cell (alignment, width). */
  className?: string;
  /** Text shown to screen readers when the header is visually empty (an actions column). */
  srHeader?: string;
  /** The API's `order_by` field this column sorts by (the header becomes a sort button). */
  sortField?: string;
  /** The first click sorts A to Z (names, statuses) instead of newest or largest first. */
  sortAscendingFirst?: boolean;
}

/** A list's order as the API takes it (`created_at[DESC]`) and how to change it. */
export interface TableOrder {
  value: string;
  onChange: (orderBy: string) => void;
}

function parseOrder(value: string): { field: string; descending: boolean } {
  // Nested fields too (prices: `unit_price.amount[DESC]`).
  const [, field, direction] = /^([a-z_.]+)\[(ASC|DESC)\]$/.exec(value) ?? [];
  return field ? { field, descending: direction === "DESC" } : { field: value, descending: false };
}

function SortHeader({
  header,
  field,
  ascendingFirst,
  order,
}: {
  header: ReactNode;
  field: string;
  ascendingFirst: boolean;
  order: TableOrder;
}) {
  const current = parseOrder(order.value);
  const active = current.field === field;
  // A first click sorts newest/largest first, as merchants look for recent things (names: A to Z);
  // a second click reverses it.
  const descending = active ? !current.descending : !ascendingFirst;
  const nextValue = `${field}[${descending ? "DESC" : "ASC"}]`;
  return (
    <button
      type="button"
      onClick={() => order.onChange(nextValue)}
      // At least 24 px high (a touch target), without growing the header row.
      className="-my-1 inline-flex min-h-6 items-center gap-1 rounded-sm uppercase tracking-wide whitespace-nowrap hover:text-slate-900"
    >
      {header}
      <span aria-hidden="true" className={active ? "text-slate-900" : "text-slate-500"}>
        {active ? (current.descending ? "↓" : "↑") : "↕"}
      </span>
    </button>
  );
}

function ariaSort(column: { sortField?: string }, order: TableOrder | undefined) {
  if (!order || !column.sortField) return undefined;
  const current = parseOrder(order.value);
  if (current.field !== column.sortField) return "none" as const;
  return current.descending ? ("descending" as const) : ("ascending" as const);
}

export interface DataTableProps<T> {
  /** Names the table for screen readers. */
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  isLoading: boolean;
  error?: unknown;
  onRetry?: () => void;
  /** Shown when the list is empty (an EmptyState, usually with a call to action). */
  empty: ReactNode;
  /** True while a new page or filter loads with the previous rows still on screen. */
  isRefreshing?: boolean;
  skeletonRows?: number;
  /** Below the table: pagination controls. */
  footer?: ReactNode;
  /** The list's order: columns with a `sortField` get a sort button. */
  order?: TableOrder;
}

/** A list of entities: a loading skeleton first, then rows, an empty state or an error. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  isLoading,
  error,
  onRetry,
  empty,
  isRefreshing = false,
  skeletonRows = 5,
  footer,
  order,
}: DataTableProps<T>) {
  if (error && !rows)
    return <ErrorState error={error} title={`Could not load ${caption.toLowerCase()}`} onRetry={onRetry} />;
  const loading = isLoading && !rows;
  if (!loading && rows && rows.length === 0) {
    return (
      <div>
        <div className="rounded-md border border-dashed border-slate-300">{empty}</div>
        {footer}
      </div>
    );
  }
  return (
    <div>
      {error ? (
        <div className="mb-3">
          <ErrorState error={error} title={`Could not refresh ${caption.toLowerCase()}`} onRetry={onRetry} />
        </div>
      ) : null}
      <ScrollArea label={caption} className="overflow-x-auto rounded-md border border-slate-200">
        <table
          className={`min-w-full divide-y divide-slate-200 text-sm transition-opacity ${isRefreshing ? "opacity-60" : ""}`}
          aria-busy={loading || isRefreshing || undefined}
        >
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50">
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={ariaSort(column, order)}
                  className={`px-3 py-2.5 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 ${column.className ?? ""}`}
                >
                  {order && column.sortField ? (
                    <SortHeader
                      header={column.header}
                      field={column.sortField}
                      ascendingFirst={column.sortAscendingFirst ?? false}
                      order={order}
                    />
                  ) : (
                    column.header
                  )}
                  {column.srHeader && <span className="sr-only">{column.srHeader}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white">
            {loading
              ? Array.from({ length: skeletonRows }, (_, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
                  <tr key={i}>
                    {columns.map((column) => (
                      <td key={column.key} className="px-3 py-3">
                        <Skeleton className="h-4 w-3/4" />
                      </td>
                    ))}
                  </tr>
                ))
              : rows?.map((row) => (
                  <tr key={rowKey(row)} className="hover:bg-slate-50">
                    {columns.map((column) => (
                      <td key={column.key} className={`px-3 py-3 align-top text-slate-700 ${column.className ?? ""}`}>
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
      </ScrollArea>
      {loading && (
        <p role="status" className="sr-only">
          Loading {caption.toLowerCase()}…
        </p>
      )}
      {footer}
    </div>
  );
}
