"use client";

import { useCallback, useState } from "react";
import type { Pagination as PaginationMeta } from "@/lib/dashboard/api";
import { Button } from "./button";
import { useUrlParams } from "./url-state";

interface CursorState {
  /** `after` of the page on screen; undefined for the first page. */
  after: string | undefined;
  /** `after` of each page before this one, oldest first. */
  previous: (string | undefined)[];
}

const FIRST: CursorState = { after: undefined, previous: [] };

/** The cursors in the address: `after`, and `prev` (the earlier pages' cursors, "" for the first). */
function fromParams(params: URLSearchParams): CursorState {
  const prev = params.get("prev");
  return {
    after: params.get("after") || undefined,
    previous: prev === null ? [] : prev.split(",").map((cursor) => cursor || undefined),
  };
}

/**
 * Keyset pagination state: the API only goes forward (`after` = last ID of a page), so the
 * cursors of the pages already seen are kept on a stack for "Previous". `inUrl`: kept in the
 * page's address (the page's main list), so reload and Back return to the same page.
 */
export function useCursorPagination(inUrl = false) {
  const [local, setLocal] = useState<CursorState>(FIRST);
  const [params, setParams] = useUrlParams();
  const state = inUrl ? fromParams(params) : local;
  const update = useCallback(
    (change: (s: CursorState) => CursorState) => {
      if (!inUrl) return setLocal(change);
      const next = change(fromParams(new URLSearchParams(window.location.search)));
      setParams({
        after: next.after,
        prev: next.previous.length > 0 ? next.previous.map((cursor) => cursor ?? "").join(",") : undefined,
      });
    },
    [inUrl, setParams],
  );
  const next = useCallback(
    (cursor: string) => update((s) => ({ after: cursor, previous: [...s.previous, s.after] })),
    [update],
  );
  const previous = useCallback(
    () =>
      update((s) => (s.previous.length === 0 ? s : { after: s.previous.at(-1), previous: s.previous.slice(0, -1) })),
    [update],
  );
  const reset = useCallback(() => update(() => FIRST), [update]);
  return {
    after: state.after,
    page: state.previous.length + 1,
    hasPrevious: state.previous.length > 0,
    next,
    previous,
    reset,
  };
}

export type CursorPagination = ReturnType<typeof useCursorPagination>;

/** The `after` of the page following this one, from `meta.pagination` (null on the last page). */
export function nextCursor(meta: PaginationMeta | undefined): string | null {
  if (!meta?.has_more || !meta.next) return null;
  try {
    return new URL(meta.next, "http://localhost").searchParams.get("after");
  } catch {
    return null;
  }
}

export function PaginationControls({
  pagination,
  meta,
  shown,
  label = "Pagination",
  disabled = false,
}: {
  pagination: CursorPagination;
  meta: PaginationMeta | undefined;
  /** Rows on the page on screen. */
  shown: number;
  label?: string;
  disabled?: boolean;
}) {
  const cursor = nextCursor(meta);
  if (!meta || (!cursor && !pagination.hasPrevious)) {
    // One page only: a count, or nothing under an empty state.
    return meta && shown > 0 ? (
      <p className="mt-3 text-xs text-slate-500">{summary(meta, shown, pagination.page)}</p>
    ) : null;
  }
  return (
    <nav aria-label={label} className="mt-3 flex flex-wrap items-center justify-between gap-3">
      <p className="text-xs text-slate-500">{summary(meta, shown, pagination.page)}</p>
      <div className="flex gap-2">
        <Button
          variant="secondary"
          size="sm"
          onClick={pagination.previous}
          disabled={disabled || !pagination.hasPrevious}
        >
          Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => cursor && pagination.next(cursor)}
          disabled={disabled || !cursor}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}

function summary(meta: PaginationMeta, shown: number, page: number): string {
  const first = (page - 1) * meta.per_page + 1;
  const last = first + shown - 1;
  if (shown === 0) return `Page ${page}`;
  const total = meta.estimated_total;
  // An estimate below what is on screen (a count cached before the latest rows) is left out.
  const known = typeof total === "number" && total >= last;
  return `Showing ${first}–${last}${known ? ` of ${total.toLocaleString()}` : ""}`;
}
