"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import Link from "next/link";
import { type ReactNode, useCallback, useId, useState } from "react";
import type { ListResponse } from "@/lib/dashboard/api";
import { formatDate, formatDateTime } from "@/lib/dashboard/display";
import { NEWEST_FIRST } from "@/lib/dashboard/hooks";
import { Button } from "./button";
import { type Column, DataTable, type TableOrder } from "./data-table";
import { useFocusReturn } from "./focus";
import { type CursorPagination, PaginationControls, useCursorPagination } from "./pagination";
import { SearchInput } from "./search-input";
import { type FilterOption, StatusFilter } from "./status-filter";
import { useUrlParams } from "./url-state";

/** Rows per page of a list page. */
export const PER_PAGE = 25;

/** The status filter of entities that are archived rather than deleted. */
export const ACTIVE_ARCHIVED_OPTIONS = [
  { value: "active", label: "Active" },
  { value: "archived", label: "Archived" },
  { value: "active,archived", label: "All" },
] as const;

/**
 * A list's status filter, search term, order and pages, kept in the page's address (`status`, `q`,
 * `order_by`, `after`/`prev`) so reload, Back and a shared link show the same list. Changing a
 * filter goes back to the first page; `setFilters` changes several (a view's own filters too) at once.
 */
export function useListFilters(initialStatus = "active", defaultOrder = NEWEST_FIRST) {
  const [params, set] = useUrlParams();
  const pagination = useCursorPagination(true);
  const setFilters = useCallback(
    (changes: Record<string, string | undefined>) => set({ ...changes, after: undefined, prev: undefined }),
    [set],
  );
  const orderBy = params.get("order_by") ?? defaultOrder;
  return {
    params,
    /**
     * A filter of the address that must be one of `options` (a select's choices): anything else
     * (an edited or outdated link) reads as "" (no filter) instead of an error from the API.
     */
    choice: (key: string, options: readonly FilterOption[]) => {
      const value = params.get(key) ?? "";
      return options.some((option) => option.value === value) ? value : "";
    },
    setFilters,
    status: params.get("status") ?? initialStatus,
    setStatus: (value: string) => setFilters({ status: value === initialStatus ? undefined : value }),
    search: params.get("q") ?? "",
    setSearch: (term: string) => setFilters({ q: term === "" ? undefined : term }),
    orderBy,
    /** For PagedTable's `order`: the list's order and how a sortable header changes it. */
    order: {
      value: orderBy,
      onChange: (value: string) => setFilters({ order_by: value === defaultOrder ? undefined : value }),
    },
    pagination,
  };
}

/**
 * An inline panel to add an entity ("new") or edit one, opened by a button that gets focus back
 * when the panel closes.
 */
export function usePanel<T = never>() {
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const id = useId();
  const [opener, restoreFocus] = useFocusReturn();
  const close = useCallback(() => {
    setEditing(null);
    restoreFocus();
  }, [restoreFocus]);
  /** The button that opens the "new" panel; the one with `focusReturn` gets focus back on close. */
  const newButton = (label: string, focusReturn: boolean, onClick?: () => void) => (
    <Button
      ref={focusReturn ? opener : undefined}
      onClick={() => {
        onClick?.();
        setEditing("new");
      }}
      aria-expanded={editing === "new"}
      aria-controls={id}
      disabled={editing !== null}
    >
      {label}
    </Button>
  );
  return { id, editing, setEditing, close, newButton };
}

/** The card of a panel opened by `usePanel`, titled. */
export function PanelSection({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="mb-6 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={`${id}-title`} className="mb-4 text-base font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The row above a list: a search box on the left (if any), the status filter on the right, after
 * any other `filters`.
 */
export function ListFilters({
  search,
  status,
  options,
  onStatus,
  filters,
}: {
  search?: {
    label: string;
    placeholder: string;
    maxLength?: number;
    initialValue?: string;
    onSearch: (term: string) => void;
  };
  status: string;
  options: readonly FilterOption[];
  onStatus: (value: string) => void;
  /** More filters (StatusFilter with their own labels), before the status. */
  filters?: ReactNode;
}) {
  return (
    <div className={`mb-4 flex flex-wrap items-center ${search ? "justify-between" : "justify-end"} gap-3`}>
      {search && <SearchInput {...search} />}
      <div className="flex min-w-0 max-w-full flex-wrap items-center gap-4">
        {filters}
        <StatusFilter value={status} options={options} onChange={onStatus} />
      </div>
    </div>
  );
}

type ListQuery<T> = Pick<
  UseQueryResult<ListResponse<T>>,
  "data" | "isLoading" | "isPlaceholderData" | "isFetching" | "error" | "refetch"
>;

/** A table of one page of a list query, with "{caption} pages" controls beneath. */
export function PagedTable<T>({
  caption,
  columns,
  rowKey,
  list,
  pagination,
  empty,
  skeletonRows,
  order,
}: {
  caption: string;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  list: ListQuery<T>;
  pagination: CursorPagination;
  empty: ReactNode;
  skeletonRows?: number;
  /** The list's order, for columns with a `sortField`. */
  order?: TableOrder;
}) {
  const rows = list.data?.data;
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={rowKey}
      isLoading={list.isLoading}
      isRefreshing={list.isPlaceholderData}
      error={list.error}
      onRetry={() => list.refetch()}
      skeletonRows={skeletonRows}
      empty={empty}
      order={order}
      footer={
        <PaginationControls
          label={`${caption} pages`}
          pagination={pagination}
          meta={list.data?.meta.pagination}
          shown={rows?.length ?? 0}
          disabled={list.isFetching}
        />
      }
    />
  );
}

/** A date, with the date and time on hover. */
export function DateCell({ value }: { value: string }) {
  return (
    <time dateTime={value} title={formatDateTime(value)}>
      {formatDate(value)}
    </time>
  );
}

/** The "Created" column. */
export function createdColumn<T extends { created_at: string }>(): Column<T> {
  return {
    key: "created",
    header: "Created",
    // IDs are time-ordered: every list sorts by creation time through its `id` order.
    sortField: "id",
    className: "whitespace-nowrap",
    cell: (row) => <DateCell value={row.created_at} />,
  };
}

/** The toast after a create: "{Noun} <link> created.{after}". */
export function createdToast(noun: string, href: string, name: ReactNode, after = "") {
  return (
    <>
      {noun}{" "}
      <Link href={href} className="font-medium underline">
        {name}
      </Link>{" "}
      created.{after}
    </>
  );
}
