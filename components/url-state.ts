"use client";

import { useSearchParams } from "next/navigation";
import { useCallback } from "react";

/**
 * A page's view state (filters, page, order, range) kept in its address, so that reload, Back and
 * a shared link show the same list. Changes replace the history entry: going back leaves the
 * list for the page before it, as in the dashboards merchants know.
 */
export function useUrlParams() {
  const params = useSearchParams();
  /** `undefined` removes a parameter (its default applies); any string, even empty, is kept. */
  const set = useCallback((changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(window.location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) next.delete(key);
      else next.set(key, value);
    }
    const query = next.toString();
    // The browser's own replaceState, which Next.js's router follows (useSearchParams updates):
    // no navigation, so the page keeps its state (an open form, the search box's focus). The data
    // must not be Next's own history state: Next ignores a call carrying its `__NA` mark (its own
    // calls) and would not update useSearchParams; given null, it copies its state over itself.
    window.history.replaceState(null, "", `${window.location.pathname}${query ? `?${query}` : ""}`);
  }, []);
  return [params, set] as const;
}
