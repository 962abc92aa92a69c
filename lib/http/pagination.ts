import type { RawJson } from "../json.ts";

/** One page of a list as the service layer returns it. */
export interface Page<T> {
  items: T[];
  perPage: number;
  hasMore: boolean;
  estimatedTotal: number;
}

/** A list response: the route wrapper adds `meta.pagination` with `next` built from the request. */
export class ListResult<T = unknown> {
  constructor(
    readonly data: T[] | RawJson,
    readonly perPage: number,
    readonly hasMore: boolean,
    readonly estimatedTotal: number,
    readonly lastId: string | null,
  ) {}
}

export function listOf<R extends { id: string }, T>(page: Page<R>, serialize: (row: R) => T): ListResult<T> {
  const last = page.items.at(-1);
  return new ListResult(page.items.map(serialize), page.perPage, page.hasMore, page.estimatedTotal, last?.id ?? null);
}

/** `next`: the original query with `after` set to the last ID of this page (always present). */
export function nextUrl(requestUrl: URL, lastId: string | null): string {
  const url = new URL(requestUrl.toString());
  if (lastId) url.searchParams.set("after", lastId);
  return url.toString();
}

/** A page whose entities PostgreSQL already rendered as a JSON array. */
export function listOfJson(page: {
  data: RawJson;
  perPage: number;
  hasMore: boolean;
  estimatedTotal: number;
  lastId: string | null;
}): ListResult {
  return new ListResult(page.data, page.perPage, page.hasMore, page.estimatedTotal, page.lastId);
}
