import type { RawJson } from "../json.ts";

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
