/**
 * Keyset pagination on an index: `after` is the ID of the last entity of the previous page and
 * the next page starts strictly after it in the requested order. No OFFSET, so the cost of a page
 * does not grow with the table. Ties on a non-unique order field are broken by ID.
 */
import { db } from "../db.ts";
import { invalidField } from "../errors.ts";
import type { Page } from "../http/pagination.ts";
import type { OrderBy } from "../schemas/list-query.ts";

type Where = Record<string, unknown>;

interface Delegate<T> {
  findMany(args: { where: Where; orderBy: Record<string, "asc" | "desc">[]; take: number }): Promise<T[]>;
  findUnique(args: { where: { id: string }; select: Record<string, boolean> }): Promise<Record<string, unknown> | null>;
  count(args: { where: Where; take?: number }): Promise<number>;
}

/** Exact counts are capped: past this many rows the planner's estimate is reported instead. */
const EXACT_COUNT_CAP = 10_000;

export interface ListArgs {
  after?: string;
  perPage: number;
  orderBy: OrderBy;
  where: Where;
  /** Table name, for the row estimate of very large tables. */
  table: string;
  /** API field name → Prisma field name, for order_by fields other than id. */
  fields?: Record<string, string>;
}

async function estimatedRows(table: string): Promise<number> {
  const rows = await db().$queryRawUnsafe<{ estimate: number }[]>(
    "SELECT reltuples::bigint::int AS estimate FROM pg_class WHERE relname = $1",
    table,
  );
  return Math.max(0, rows[0]?.estimate ?? 0);
}

export async function paginate<T extends { id: string }>(delegate: Delegate<T>, args: ListArgs): Promise<Page<T>> {
  const { direction } = args.orderBy;
  const field = args.orderBy.field === "id" ? "id" : (args.fields?.[args.orderBy.field] ?? args.orderBy.field);
  const cmp = direction === "asc" ? "gt" : "lt";
  let keyset: Where = {};
  if (args.after) {
    if (field === "id") keyset = { id: { [cmp]: args.after } };
    else {
      const cursor = await delegate.findUnique({ where: { id: args.after }, select: { [field]: true } });
      if (!cursor) throw invalidField("after", `no entity has the ID ${args.after}`);
      const value = cursor[field];
      keyset = { OR: [{ [field]: { [cmp]: value } }, { [field]: value, id: { [cmp]: args.after } }] };
    }
  }
  const orderBy = field === "id" ? [{ id: direction }] : [{ [field]: direction }, { id: direction }];
  const [rows, counted] = await Promise.all([
    delegate.findMany({ where: { AND: [args.where, keyset] }, orderBy, take: args.perPage + 1 }),
    delegate.count({ where: args.where, take: EXACT_COUNT_CAP }),
  ]);
  const estimatedTotal = counted >= EXACT_COUNT_CAP ? Math.max(counted, await estimatedRows(args.table)) : counted;
  const hasMore = rows.length > args.perPage;
  return { items: hasMore ? rows.slice(0, args.perPage) : rows, perPage: args.perPage, hasMore, estimatedTotal };
}
