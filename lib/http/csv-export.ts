/**
 * CSV export of any list, with the filters the list page shows: the export calls the list's own
 * API route handler in-process, page after page (200 rows each, keyset `after`), with the
 * caller's own credentials, so the API's permission, validation and filters apply unchanged.
 * Rows are streamed as they come: a large list never sits whole in memory. Cells are written by
 * the reports' csvCell (RFC 4180, formula-safe).
 */
import { randomUUID } from "node:crypto";
import { ApiError } from "../errors.ts";
import { csvLine } from "../services/reports/csv.ts";
import { apiErrorResponse } from "./response.ts";

type ListHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

const PAGE_SIZE = "200";
/** Nested objects become dotted columns (`details.totals.grand_total`) down to this depth. */
const MAX_DEPTH = 3;

interface Page {
  data: Record<string, unknown>[];
  next: string | null;
}

function flatten(value: unknown, prefix: string, depth: number, out: Map<string, string>): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value) && depth < MAX_DEPTH) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, depth + 1, out);
    return;
  }
  out.set(
    prefix,
    value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value),
  );
}

/**
 * Streams `list` (a list route's GET handler for `apiPath`) as CSV. Errors of the first page (no
 * permission, a bad filter) are answered as the API answers them, before any CSV is sent.
 */
export async function exportCsv(
  request: Request,
  list: ListHandler,
  apiPath: string,
  filename: string,
): Promise<Response> {
  const query = new URL(request.url).searchParams;
  query.delete("after");
  query.set("per_page", PAGE_SIZE);
  const headers = new Headers(request.headers);
  headers.delete("content-type");

  async function page(after: string | null): Promise<Page | Response> {
    const pageQuery = new URLSearchParams(query);
    if (after) pageQuery.set("after", after);
    const url = new URL(`/api${apiPath}?${pageQuery}`, request.url);
    const response = await list(new Request(url, { method: "GET", headers }), { params: Promise.resolve({}) });
    if (response.status !== 200) return response;
    const body = (await response.json()) as {
      data: Record<string, unknown>[];
      meta: { pagination?: { has_more: boolean; next: string | null } };
    };
    const pagination = body.meta.pagination;
    const next = pagination?.has_more && pagination.next ? new URL(pagination.next).searchParams.get("after") : null;
    return { data: body.data, next };
  }

  const first = await page(null);
  if (first instanceof Response) return first;
  const rows = (data: Record<string, unknown>[]) =>
    data.map((row) => {
      const cells = new Map<string, string>();
      flatten(row, "", 0, cells);
      return cells;
    });
  const firstRows = rows(first.data);
  // The columns: every field of the first page's rows, in the API's order.
  const columns = [...new Set(firstRows.flatMap((row) => [...row.keys()]))];
  const encoder = new TextEncoder();
  let pending: Page | null = first;
  let pendingRows: Map<string, string>[] | null = firstRows;

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(columns)));
    },
    async pull(controller) {
      if (!pending) {
        controller.close();
        return;
      }
      const text = (pendingRows ?? rows(pending.data))
        .map((row) => csvLine(columns.map((c) => row.get(c) ?? "")))
        .join("");
      controller.enqueue(encoder.encode(text));
      const after = pending.next;
      pending = null;
      pendingRows = null;
      if (!after) {
        controller.close();
        return;
      }
      const next = await page(after);
      // A page that fails mid-stream (the session ended) ends the file; what was sent stays valid CSV.
      if (next instanceof Response) controller.close();
      else pending = next;
    },
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
}

/** For an export of a list that has none. */
export function noSuchExport(name: string): Response {
  return apiErrorResponse(new ApiError("not_found", `No list ${name} to export.`), randomUUID());
}
