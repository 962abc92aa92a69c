/**
 * CSV export of any list, with the filters the list page shows: the export calls the list's own
 * API route handler in-process, page after page (200 rows each, keyset `after`), with the
 * caller's own credentials, so the API's permission, validation and filters apply unchanged.
 * Rows are streamed as they come: a large list never sits whole in memory. Cells are written by
 * the reports' csvCell (RFC 4180, formula-safe).
 *
 * Flat columns an accountant can open (decided for issue 26; docs/exports.md lists them):
 * - The columns come from the list's declared response schema, not from the rows, so every file of
 *   a list has the same header (also when empty, or when the first rows lack an optional object).
 * - Objects become dotted columns at any depth (`details.totals.grand_total`); lists of values
 *   are joined with "; "; a list of objects is counted (`items.count`) and, with `rows=line_items`,
 *   becomes one row per element (below); free-form maps (`custom_data`, an event's `data`) are one
 *   cell of `key=value` pairs joined with "; ". No cell holds JSON.
 * - Each amount (a minor-unit string: `total`, `grand_total`, `amount`, ... in an object that has,
 *   or sits in one that has, a `currency_code`) is followed by `<column>_decimal` ("617.85"),
 *   written exactly by the currencies table.
 * - `rows=line_items` (transactions: `details.line_items`; adjustments and subscriptions: `items`):
 *   one row per line, the entity's columns repeated, the line's columns prefixed `line.`; an entity
 *   without lines still has its row.
 */
import { randomUUID } from "node:crypto";
import { ApiError } from "../errors.ts";
import { csvLine } from "../services/reports/csv.ts";
import { decimalAmount, decimalColumn } from "../services/reports/decimals.ts";
import { apiErrorResponse } from "./response.ts";
import { PaginatedList, type RouteDeclaration } from "./route.ts";

type ListHandler = ((request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>) & {
  declaration?: RouteDeclaration;
};

const PAGE_SIZE = "200";

/** The list of each export whose elements `rows=line_items` makes rows of. */
const LINE_ITEMS: Record<string, string[]> = {
  "/transactions": ["details", "line_items"],
  "/adjustments": ["items"],
  "/subscriptions": ["items"],
};

/** Fields that hold an amount in minor units (as strings) when their object has a currency. */
const MONEY_FIELDS = new Set([
  "amount",
  "subtotal",
  "discount",
  "tax",
  "total",
  "grand_total",
  "balance",
  "credit",
  "credit_to_balance",
  "fee",
  "earnings",
  "retained_fee",
  "refund",
  "chargeback",
]);

type Row = Record<string, unknown>;

/** One CSV column: where its value is (in the entity, or in the line of a line-item row). */
interface Column {
  name: string;
  from: "row" | "line";
  path: string[];
  kind: "value" | "list" | "count" | "map" | "decimal";
  /** For a decimal column: where its currency is. */
  currency?: { from: "row" | "line"; path: string[] };
}

interface Zod {
  _zod: { def: Record<string, any> };
}

/** A field of no one type: its cell is the value as JSON (a map column). */
const UNTYPED: Zod = { _zod: { def: { type: "unknown" } } };

const WRAPPERS = new Set(["nullable", "optional", "default", "prefault", "readonly", "catch", "nonoptional"]);

function unwrap(schema: Zod): Zod {
  let current = schema;
  for (let i = 0; i < 10; i++) {
    const def = current._zod.def;
    if (WRAPPERS.has(def.type)) current = def.innerType;
    else if (def.type === "pipe") current = def.out?._zod?.def?.type === "transform" ? def.in : def.out;
    else if (def.type === "lazy") current = def.getter();
    else break;
  }
  return current;
}

const SCALARS = new Set(["string", "number", "int", "boolean", "bigint", "enum", "literal", "null", "date", "nan"]);

function isScalar(schema: Zod): boolean {
  const def = unwrap(schema)._zod.def;
  if (SCALARS.has(def.type)) return true;
  return def.type === "union" && (def.options as Zod[]).every(isScalar);
}

function isObject(schema: Zod): boolean {
  return unwrap(schema)._zod.def.type === "object";
}

/**
 * The fields of an object, or of a union of objects (an event, typed by its `event_type`): the
 * fields every option has; one whose options differ (an event's `data`) is a map cell unless every
 * option is a scalar (the `event_type` literals), as when `data` was one untyped field.
 */
function shapeOf(schema: Zod): Record<string, Zod> {
  const def = unwrap(schema)._zod.def;
  if (def.type !== "union") return def.shape as Record<string, Zod>;
  const shapes = (def.options as Zod[]).map((option) => unwrap(option)._zod.def.shape as Record<string, Zod>);
  const [first, ...rest] = shapes;
  const shape: Record<string, Zod> = {};
  for (const [key, child] of Object.entries(first ?? {})) {
    const children = rest.map((other) => other[key]);
    if (children.some((other) => other === undefined)) continue;
    const same = children.every((other) => other === child);
    shape[key] = same || children.every((other) => other !== undefined && isScalar(other)) ? child : UNTYPED;
  }
  return shape;
}

/** The columns of `schema` (an object) at `path`, amounts in the currency at `currency`. */
function columnsOf(
  schema: Zod,
  from: "row" | "line",
  path: string[],
  currency: Column["currency"] | null,
  out: Column[],
  skip: string[] | null,
  included: ReadonlySet<string> | null = null,
): void {
  const shape = shapeOf(schema);
  const own = Object.hasOwn(shape, "currency_code") ? { from, path: [...path, "currency_code"] } : currency;
  for (const [key, child] of Object.entries(shape)) {
    // An entity's optional objects and lists are its `include`s: columns only when asked for.
    if (included && child._zod.def.type === "optional" && !isScalar(child) && !included.has(key)) continue;
    const childPath = [...path, key];
    const name = (from === "line" ? ["line", ...childPath] : childPath).join(".");
    const inner = unwrap(child);
    const type = inner._zod.def.type;
    if (type === "object") {
      columnsOf(inner, from, childPath, own, out, skip);
    } else if (type === "array") {
      const element = inner._zod.def.element as Zod;
      if (isScalar(element)) out.push({ name, from, path: childPath, kind: "list" });
      else if (skip?.join(".") !== childPath.join(".")) {
        out.push({ name: `${name}.count`, from, path: childPath, kind: "count" });
      }
    } else if (isScalar(inner)) {
      out.push({ name, from, path: childPath, kind: "value" });
      if (MONEY_FIELDS.has(key) && own && unwrap(inner)._zod.def.type === "string") {
        out.push({ name: decimalColumn(name), from, path: childPath, kind: "decimal", currency: own });
      }
    } else {
      out.push({ name, from, path: childPath, kind: "map" });
    }
  }
}

/** The element schema of the array at `path` in `schema`, when it is a list of objects. */
function elementAt(schema: Zod, path: string[]): Zod | null {
  let current = unwrap(schema);
  for (const key of path) {
    const def = current._zod.def;
    if (def.type !== "object" || !Object.hasOwn(def.shape, key)) return null;
    current = unwrap(def.shape[key]);
  }
  if (current._zod.def.type !== "array") return null;
  const element = current._zod.def.element as Zod;
  return isObject(element) ? element : null;
}

function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = (current as Row)[key];
  }
  return current;
}

function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(text).join("; ");
  if (typeof value === "object") return pairs(value as Row, "").join("; ");
  return String(value);
}

/** A free-form map as `key=value` pairs (nested keys dotted, lists joined with ","). */
function pairs(value: Row, prefix: string): string[] {
  const out: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) out.push(...pairs(inner as Row, name));
    else if (Array.isArray(inner))
      out.push(`${name}=${inner.map((v) => (typeof v === "object" ? text(v) : String(v))).join(",")}`);
    else out.push(`${name}=${inner === null ? "" : String(inner)}`);
  }
  return out;
}

function cell(column: Column, row: Row, line: Row | null): string {
  const source = column.from === "line" ? line : row;
  if (source === null) return "";
  const value = at(source, column.path);
  switch (column.kind) {
    case "count":
      return Array.isArray(value) ? String(value.length) : "";
    case "list":
      return Array.isArray(value) ? value.map(text).join("; ") : "";
    case "decimal": {
      const currency = column.currency as NonNullable<Column["currency"]>;
      const holder = currency.from === "line" ? line : row;
      return decimalAmount(value, holder ? at(holder, currency.path) : null);
    }
    default:
      return text(value);
  }
}

interface Page {
  data: Row[];
  next: string | null;
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
  const rowsOption = query.get("rows");
  query.delete("rows");
  query.delete("after");
  query.set("per_page", PAGE_SIZE);
  const headers = new Headers(request.headers);
  headers.delete("content-type");

  const response = list.declaration?.response;
  const item = response instanceof PaginatedList ? (response.item as unknown as Zod) : null;
  const linePath = rowsOption === "line_items" ? (LINE_ITEMS[apiPath] ?? null) : null;
  const lineSchema = item && linePath ? elementAt(item, linePath) : null;
  if (rowsOption !== null && (rowsOption !== "line_items" || !lineSchema)) {
    const offered = Object.keys(LINE_ITEMS).map((path) => path.slice(1));
    const error = new ApiError("invalid_field", "Invalid request.", {
      errors: [
        {
          field: "rows",
          message:
            rowsOption === "line_items"
              ? `one row per line item is offered for ${offered.join(", ")}, not for ${apiPath.slice(1)}`
              : "must be line_items (one row per line item), or left out for one row per entity",
        },
      ],
    });
    return apiErrorResponse(error, randomUUID());
  }

  async function page(after: string | null): Promise<Page | Response> {
    const pageQuery = new URLSearchParams(query);
    if (after) pageQuery.set("after", after);
    const url = new URL(`/api${apiPath}?${pageQuery}`, request.url);
    const answer = await list(new Request(url, { method: "GET", headers }), { params: Promise.resolve({}) });
    if (answer.status !== 200) return answer;
    const body = (await answer.json()) as {
      data: Row[];
      meta: { pagination?: { has_more: boolean; next: string | null } };
    };
    const pagination = body.meta.pagination;
    const next = pagination?.has_more && pagination.next ? new URL(pagination.next).searchParams.get("after") : null;
    return { data: body.data, next };
  }

  const first = await page(null);
  if (first instanceof Response) return first;

  const columns: Column[] = [];
  if (item) {
    const included = new Set((query.get("include") ?? "").split(",").map((name) => name.trim()));
    columnsOf(item, "row", [], null, columns, linePath, included);
    if (lineSchema && linePath) {
      // A line's amounts are in its own currency, else the entity's.
      const rowCurrency = columns.some((c) => c.from === "row" && c.path.join(".") === "currency_code")
        ? { from: "row" as const, path: ["currency_code"] }
        : null;
      columnsOf(lineSchema, "line", [], rowCurrency, columns, null);
    }
  } else {
    // A list without a declared schema: the first page's top-level fields.
    for (const key of new Set(first.data.flatMap((row) => Object.keys(row)))) {
      columns.push({ name: key, from: "row", path: [key], kind: "map" });
    }
  }
  const lines = (row: Row): (Row | null)[] => {
    if (!linePath) return [null];
    const value = at(row, linePath);
    const elements = Array.isArray(value) ? (value.filter((v) => v && typeof v === "object") as Row[]) : [];
    return elements.length > 0 ? elements : [null];
  };
  const render = (data: Row[]) =>
    data.flatMap((row) => lines(row).map((line) => csvLine(columns.map((column) => cell(column, row, line))))).join("");

  const encoder = new TextEncoder();
  let pending: Page | null = first;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(columns.map((c) => c.name))));
    },
    async pull(controller) {
      if (!pending) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(render(pending.data)));
      const after = pending.next;
      pending = null;
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
  const name = linePath ? filename.replace(/\.csv$/, "-line-items.csv") : filename;
  return new Response(stream, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
      "cache-control": "no-store",
    },
  });
}

/** For an export of a list that has none. */
export function noSuchExport(name: string): Response {
  return apiErrorResponse(new ApiError("not_found", `No list ${name} to export.`), randomUUID());
}
