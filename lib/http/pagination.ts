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

/**
 * `next`: the original query with `after` set to the last ID of this page (always present), under
 * PUBLIC_URL. The path is the one the client called: a rewrite leaves a request's URL as it came,
 * so a list read at the host root (lib/http/root-api.js) links to the root and one read under /api
 * to /api. Both SDKs follow it whichever base URL they were given: the Node SDK calls `next` as
 * it is when it contains its base URL (the root's links contain a root base URL, /api's links an
 * /api one), and the Python SDK calls urljoin(base_url, next), which is `next` itself, an absolute
 * URL. (A client whose base URL is not PUBLIC_URL's host gets links it cannot follow: PUBLIC_URL
 * must be the address clients use, see README.)
 */
export function nextUrl(requestUrl: URL, lastId: string | null): string {
  const url = new URL(requestUrl.toString());
  // The query written again as form data, also without `after` (the last page): filters such as
  // `created_at[LT]` keep their brackets raw in a request URL, and a bracket is no URI character
  // (RFC 3986): the family documents `next` as a URI, so it goes out percent-encoded (%5B, %5D).
  const params = new URLSearchParams(url.search);
  if (lastId) params.set("after", lastId);
  url.search = params.toString();
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
