/**
 * The hot data path: SQL on the pg pool, with PostgreSQL building each entity's JSON.
 *
 * Why not Prisma here: measured on this 2-core machine, a Prisma 7 findMany of 51 rows costs
 * ~0.5 ms of Node CPU and an interactive transaction of two writes ~1.1 ms, against ~0.05 ms and
 * ~0.1 ms for the same work on pg with the JSON built by PostgreSQL. The Next.js floor is ~0.8 ms a
 * request, so Prisma alone would cap every endpoint at a fraction of the framework's throughput.
 * Prisma keeps the schema, the migrations, the generated types and the admin paths (CLI, seed, tests).
 *
 * An `EntityTable` names, once, how an entity's API fields come from its columns: it is the
 * entity's serializer (a whitelist, in the spec's field order) and is used by every read and
 * write of that entity and by the event written with each change (the transactional outbox).
 * Each entity's EntityTable (with its `include` variants) is in lib/db/entities/<entity>.ts.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { invalidField } from "../errors.ts";
import { newId } from "../ids.ts";
import { RawJson } from "../json.ts";
import type { OrderBy } from "../schemas/list-query.ts";
import { pool } from "./connection.ts";
import { storableJson, storableParam } from "./storable.ts";

export { RawJson, storableJson };

export type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/** `T` is the entity's API type, which the JSON built from `fields` has. */
export interface EntityTable<T = unknown> {
  /** Carries `T` (never set). */
  readonly __entity?: T;
  table: string;
  /** API field → SQL expression over the row alias `t`, in the order the API returns them. */
  fields: readonly (readonly [string, string])[];
  /**
   * Fields after `fields` that are left out of the object when their value is SQL NULL, where the
   * API family leaves a key out rather than send null: an `include` that is "returned when the
   * transaction has one" (a transaction's customer, address, business, discount, adjustments).
   */
  optional?: readonly (readonly [string, string])[];
  /**
   * API order_by field → SQL expression over `t`, for lists ordered by something other than id.
   * It must never be NULL (keyset comparison needs a value): wrap nullable columns in coalesce.
   */
  orderColumns?: Record<string, string>;
}

/** A timestamp column as RFC 3339 in UTC with PostgreSQL's full microseconds. */
export function ts(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** A constant text as an SQL string literal (for configuration baked into an entity's fields). */
export function sqlText(value: string): string {
  return `'${value.replace(/'/g, "''")}'::text`;
}

/**
 * The entity's JSON object, keys in `fields` order. row_to_json over a one-row subselect, not
 * json_build_object: the same work (measured slightly faster) and compact output, where
 * json_build_object writes `"key" : value` with spaces into every response and webhook.
 */
export function jsonObject(entity: EntityTable): string {
  return jsonRecord(entity.fields, entity.optional);
}

/**
 * A JSON object of `[key, SQL expression]` pairs, in order (for objects nested in an entity, too),
 * then the `optional` pairs whose value is not SQL NULL (a key with a null value is left out).
 * Those are appended to row_to_json's text (`{…}` less its `}`, then `,"key":value` each): the
 * object stays compact and in order, which json_build_object and jsonb's `||` would not keep.
 */
export function jsonRecord(
  fields: readonly (readonly [string, string])[],
  optional: readonly (readonly [string, string])[] = [],
): string {
  const columns = fields.map(([name, expr]) => `${expr} AS "${name}"`).join(", ");
  if (optional.length === 0) return `(SELECT row_to_json(r) FROM (SELECT ${columns}) r)`;
  const values = optional.map(([, expr], i) => `${expr} AS o${i}`).join(", ");
  const appended = optional.map(([name], i) => `${sqlText(`,"${name}":`)} || to_json(o.o${i})::text`).join(", ");
  return `(SELECT (left(row_to_json(r)::text, -1) || concat(${appended}) || '}')::json
    FROM (SELECT ${columns}) r, (SELECT ${values}) o)`;
}

/**
 * A related entity's JSON, as a field expression over the row `t` (for `include`). `where` selects
 * the related rows over their own alias `t` and names the row they relate to `parent`, e.g.
 * `t.product_id = parent.id`. `many`: a JSON array ordered by id (`[]` when none, not paginated);
 * otherwise the one related entity, or null.
 */
export function relatedJson(entity: EntityTable, where: string, many: boolean): string {
  const value = many ? `coalesce(json_agg(${jsonObject(entity)} ORDER BY t.id), '[]'::json)` : jsonObject(entity);
  // `(SELECT t.*) parent` captures the outer row before the related table's own `t` shadows it.
  return `(SELECT ${value} FROM (SELECT t.*) parent, ${entity.table} t WHERE ${where}${many ? "" : " LIMIT 1"})`;
}

/**
 * The entity `base` for a request's `include`: with `include` naming `name`, `base` with one more
 * field, `name`, holding the related entity (`many`: every related entity, as an array) as JSON.
 * The extended entity is built on first use: entity modules that include each other import each
 * other, so `related` is read late.
 */
export function includable<T, R>(
  base: EntityTable<T>,
  name: string,
  related: () => EntityTable,
  where: string,
  many: boolean,
): (include: readonly string[] | undefined) => EntityTable<T | R> {
  let extended: EntityTable<R> | undefined;
  return (include) => {
    if (!include?.includes(name)) return base;
    extended ??= {
      table: base.table,
      fields: [...base.fields, [name, relatedJson(related(), where, many)]],
      orderColumns: base.orderColumns,
    };
    return extended;
  };
}

// Named statements are parsed and planned once per connection: the statement text names itself.
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s${createHash("sha1").update(text).digest("base64url").slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

export async function query<R extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
  on: Queryable = pool(),
): Promise<R[]> {
  // Every value's text is made storable here (lib/db/storable.ts): text no request validated
  // (a remote server's response body, an error message) can never fail a write.
  const result = await on.query<R>({ name: statementName(text), text, values: values.map(storableParam) });
  return result.rows;
}

/**
 * The statement's one row, or undefined when it returns none: for a lookup a caller can miss (an
 * unknown ID, a row another request just deleted), which the caller turns into its not-found error.
 */
export async function queryOne<R extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
  on: Queryable = pool(),
): Promise<R | undefined> {
  const rows = await query<R>(text, values, on);
  return rows[0];
}

/**
 * The statement's one row, for statements whose SQL guarantees exactly one (INSERT … RETURNING of
 * one row, an aggregate without GROUP BY, `SELECT now()`). Any other count is a bug in our code,
 * not in the request: it throws a plain Error (logged, answered as 500 internal_error) that names
 * the statement by its first words.
 */
export async function queryExactlyOne<R extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
  on: Queryable = pool(),
): Promise<R> {
  const rows = await query<R>(text, values, on);
  const [row] = rows;
  if (rows.length !== 1 || row === undefined) {
    throw new Error(`expected exactly one row, got ${rows.length}: ${statementStart(text)}`);
  }
  return row;
}

/** The first words of a statement, enough to find it in the code: "INSERT INTO invoices (…". */
function statementStart(text: string): string {
  const words = text.trim().split(/\s+/).slice(0, 6).join(" ");
  return words.length > 60 ? `${words.slice(0, 60)}…` : `${words} …`;
}

/** Runs `fn` in one database transaction on one connection. */
export async function sqlTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** A value for a JSON column: sent as text (storableJson) and cast to jsonb. */
export class Jsonb {
  constructor(readonly value: unknown) {}
}

/** Marks a JSON column's value; undefined (leave as is) and null (SQL NULL) pass through. */
export function jsonb(value: unknown): Jsonb | null | undefined {
  if (value === undefined || value === null) return value;
  return new Jsonb(value);
}

/** Builds a parameter list: `p.add(value)` returns its placeholder. Arrays go as PostgreSQL arrays. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    if (value instanceof Jsonb) {
      this.values.push(storableJson(value.value));
      return `$${this.values.length}::jsonb`;
    }
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /**
   * `expr` equal to one of `values`. A single value is written as `=`, not `= ANY(...)`: only
   * then can PostgreSQL walk an index on (column, id) in order and stop at the page's end.
   */
  oneOf(expr: string, values: readonly unknown[]): string {
    return values.length === 1 ? `${expr} = ${this.add(values[0])}` : `${expr} = ANY(${this.add(values)})`;
  }
}

export async function getJson<T>(
  entity: EntityTable<T>,
  where: string,
  values: unknown[],
  on?: Queryable,
): Promise<RawJson<T> | null> {
  const row = await queryOne<{ j: string }>(
    `SELECT ${jsonObject(entity)}::text AS j FROM ${entity.table} t WHERE ${where}`,
    values,
    on,
  );
  return row ? new RawJson(row.j) : null;
}

export interface JsonPage {
  data: RawJson;
  perPage: number;
  hasMore: boolean;
  estimatedTotal: number;
  lastId: string | null;
}

/** Exact counts stop here; past it the planner's row estimate of the table is reported. */
const EXACT_COUNT_CAP = 10_000;

/**
 * `estimated_total` of a filter is reused for a few seconds: paging through a list, or many
 * clients reading the same list, then costs no count at all. It is an estimate by contract; a
 * write through this process forgets the table's totals at once, other processes' within the TTL.
 */
const TOTAL_TTL_MS = 5_000;
const totals = new Map<string, Map<string, { total: number; at: number }>>();

function cachedTotal(table: string, key: string): number | null {
  const hit = totals.get(table)?.get(key);
  if (!hit) return null;
  if (Date.now() - hit.at > TOTAL_TTL_MS) {
    totals.get(table)?.delete(key);
    return null;
  }
  return hit.total;
}

function rememberTotal(table: string, key: string, total: number): void {
  let byKey = totals.get(table);
  if (!byKey) {
    byKey = new Map();
    totals.set(table, byKey);
  }
  if (byKey.size >= 1_000) byKey.clear();
  byKey.set(key, { total, at: Date.now() });
}

/** Forgets the cached totals of `table`: for writes made outside insertJson, updateJson and deleteRows. */
export function forgetTotals(table: string): void {
  totals.delete(table);
}

/**
 * One page of a list in one statement: keyset on (order column, id) after the `after` entity, so
 * no page costs more than the first. `filters` are SQL conditions over `t` using `params`.
 */
export async function listJson(
  entity: EntityTable,
  options: { filters: string[]; params: Params; orderBy: OrderBy; after?: string; perPage: number },
): Promise<JsonPage> {
  const { params, orderBy, perPage } = options;
  const dir = orderBy.direction === "desc" ? "DESC" : "ASC";
  const key = orderBy.field === "id" ? "t.id" : entity.orderColumns?.[orderBy.field];
  if (!key) throw invalidField("order_by", `cannot order by ${orderBy.field}`);
  const filter = options.filters.length ? options.filters.join(" AND ") : "TRUE";
  const totalKey = `${process.env.DATABASE_URL}|${filter}|${JSON.stringify(params.values)}`;
  const knownTotal = cachedTotal(entity.table, totalKey);
  const keyset: string[] = [];
  if (options.after) {
    const after = params.add(options.after);
    const cmp = dir === "ASC" ? ">" : "<";
    if (key === "t.id") keyset.push(`t.id ${cmp} ${after}`);
    else {
      const exists = await query(`SELECT 1 FROM ${entity.table} WHERE id = $1`, [options.after]);
      if (exists.length === 0) throw invalidField("after", `no entity has the ID ${options.after}`);
      // The subquery's own `t` shadows the outer one, so the same order expression serves both.
      keyset.push(`((${key}), t.id) ${cmp} ((SELECT ${key} FROM ${entity.table} t WHERE t.id = ${after}), ${after})`);
    }
  }
  const limit = params.add(perPage + 1);
  const size = params.add(perPage);
  let total = "NULL::int";
  if (knownTotal === null) {
    const cap = params.add(EXACT_COUNT_CAP);
    const table = params.add(entity.table);
    total = `(SELECT CASE WHEN n.c >= ${cap}
                          THEN greatest(n.c, (SELECT reltuples::bigint FROM pg_class WHERE relname = ${table}))
                          ELSE n.c END::int
                FROM (SELECT count(*) AS c FROM (SELECT 1 FROM ${entity.table} t WHERE ${filter} LIMIT ${cap}) x) n)`;
  }
  const sql = `
    SELECT coalesce(json_agg(${jsonObject(entity)} ORDER BY t.rn) FILTER (WHERE t.rn <= ${size}), '[]')::text AS data,
           count(*)::int > ${size} AS has_more,
           (array_agg(t.id ORDER BY t.rn DESC) FILTER (WHERE t.rn <= ${size}))[1] AS last_id,
           ${total} AS total
    FROM (SELECT p.*, row_number() OVER (ORDER BY p.sort_key ${dir}, p.id ${dir}) AS rn
          FROM (SELECT t.*, (${key}) AS sort_key FROM ${entity.table} t
                WHERE ${[filter, ...keyset].join(" AND ")}
                ORDER BY (${key}) ${dir}, t.id ${dir} LIMIT ${limit}) p) t`;
  const row = await queryExactlyOne<{ data: string; has_more: boolean; last_id: string | null; total: number | null }>(
    sql,
    params.values,
  );
  if (knownTotal === null) rememberTotal(entity.table, totalKey, row.total ?? 0);
  return {
    data: new RawJson(row.data),
    perPage,
    hasMore: row.has_more,
    estimatedTotal: knownTotal ?? row.total ?? 0,
    lastId: row.last_id,
  };
}

/** Column → value for an insert or update; undefined values are left out. */
export type Columns = Record<string, unknown>;

/**
 * The events of a write: one type, several (one change the API family announces twice, such as
 * `transaction.updated` and `transaction.ready`: each gets its own event with the same data, in
 * the order given), or null for none.
 */
export type EventTypes = string | readonly string[] | null;

/** The event CTE of a write (after the `o` CTE), or nothing for an entity whose writes emit no event. */
function eventCte(eventType: EventTypes, params: Params): string {
  const types = eventType === null ? [] : typeof eventType === "string" ? [eventType] : eventType;
  if (types.length === 0) return "";
  if (types.length === 1) {
    return `,
    e AS (INSERT INTO events (id, event_type, entity_id, data)
          SELECT ${params.add(newId("evt"))}, ${params.add(types[0])}, o.id, o.j FROM o)`;
  }
  // IDs are made in order (monotonic), so the events sort in the order of `types`.
  const ids = types.map(() => newId("evt"));
  return `,
    e AS (INSERT INTO events (id, event_type, entity_id, data)
          SELECT x.id, x.event_type, o.id, o.j
          FROM o, unnest(${params.add(ids)}::text[], ${params.add([...types])}::text[]) AS x(id, event_type))`;
}

/**
 * Inserts a row and its event (the transactional outbox) in one statement, returning the
 * entity's JSON. A single statement is atomic: the event exists exactly when the row does.
 * `eventType` null writes no event, for entities the API family has no events for.
 */
export async function insertJson<T>(
  entity: EntityTable<T>,
  columns: Columns,
  eventType: EventTypes,
  on?: Queryable,
): Promise<RawJson<T>> {
  const params = new Params();
  const names: string[] = [];
  const values: string[] = [];
  for (const [name, value] of Object.entries(columns)) {
    if (value === undefined) continue;
    names.push(name);
    values.push(params.add(value));
  }
  const sql = `WITH t AS (INSERT INTO ${entity.table} (${names.join(", ")}) VALUES (${values.join(", ")}) RETURNING *),
    o AS (SELECT t.id, ${jsonObject(entity)} AS j FROM t)${eventCte(eventType, params)}
    SELECT o.j::text AS j FROM o`;
  const row = await queryExactlyOne<{ j: string }>(sql, params.values, on);
  forgetTotals(entity.table);
  return new RawJson(row.j);
}

/**
 * Updates the row `where` selects (and sets updated_at), writes its event in the same statement,
 * and returns the entity's JSON; null when no row matched. `eventType` null writes no event.
 */
export async function updateJson<T>(
  entity: EntityTable<T>,
  where: { sql: string; values: unknown[] },
  columns: Columns,
  eventType: EventTypes,
  on?: Queryable,
): Promise<RawJson<T> | null> {
  const params = new Params();
  for (const value of where.values) params.values.push(value);
  const sets = ["updated_at = now()"];
  for (const [name, value] of Object.entries(columns)) {
    if (value !== undefined) sets.push(`${name} = ${params.add(value)}`);
  }
  const sql = `WITH t AS (UPDATE ${entity.table} t SET ${sets.join(", ")} WHERE ${where.sql} RETURNING t.*),
    o AS (SELECT t.id, ${jsonObject(entity)} AS j FROM t)${eventCte(eventType, params)}
    SELECT o.j::text AS j FROM o`;
  const row = await queryOne<{ j: string }>(sql, params.values, on);
  forgetTotals(entity.table);
  return row ? new RawJson(row.j) : null;
}

/**
 * The event CTE of a multi-row write (after the `o` CTE): `types` for every row of `o`, each row's
 * events in the order of `types`. `entityIds` lists the rows in the order they were given, so the
 * event IDs (made in order, monotonic) follow the rows' order and, within a row, `types`.
 */
function eventsOfRowsCte(entityIds: readonly string[], eventType: EventTypes, params: Params): string {
  const types = eventType === null ? [] : typeof eventType === "string" ? [eventType] : eventType;
  if (types.length === 0 || entityIds.length === 0) return "";
  const ids: string[] = [];
  const owners: string[] = [];
  const kinds: string[] = [];
  for (const entityId of entityIds) {
    for (const type of types) {
      ids.push(newId("evt"));
      owners.push(entityId);
      kinds.push(type);
    }
  }
  return `,
    e AS (INSERT INTO events (id, event_type, entity_id, data)
          SELECT x.id, x.event_type, o.id, o.j
          FROM unnest(${params.add(ids)}::text[], ${params.add(owners)}::text[], ${params.add(kinds)}::text[])
                 AS x(id, entity_id, event_type)
          JOIN o ON o.id = x.entity_id ORDER BY x.id)`;
}

/** The column names of `rows` (the first row's; every row must have the same). */
function rowColumns(rows: readonly Columns[]): string[] {
  const [first = {}] = rows;
  const names = Object.keys(first).filter((name) => first[name] !== undefined);
  for (const row of rows) {
    const own = Object.keys(row).filter((name) => row[name] !== undefined);
    if (own.length !== names.length || own.some((name, i) => name !== names[i])) {
      throw new Error(`rows of one write must have the same columns: ${names.join(",")} vs ${own.join(",")}`);
    }
  }
  return names;
}

/**
 * Inserts `rows` and each row's events (`eventType`, the transactional outbox) in one statement:
 * the set-based form of insertJson, for batches (the subscription engine's renewals). Every row
 * has the same columns, an `id` among them; a json column's value is the value itself (an object,
 * an array), not its text. The rows go to PostgreSQL as one JSON array read with
 * json_populate_recordset, so the table's own column types apply (no cast per column), and each
 * row's entity JSON is built once for all its events. Returns nothing: batches do not need it.
 */
export async function insertRows(
  entity: EntityTable,
  rows: readonly Columns[],
  eventType: EventTypes,
  on?: Queryable,
): Promise<void> {
  if (rows.length === 0) return;
  const names = rowColumns(rows);
  const params = new Params();
  const data = params.add(storableJson(rows));
  const list = names.join(", ");
  const sql = `WITH t AS (INSERT INTO ${entity.table} (${list})
                SELECT ${list} FROM json_populate_recordset(NULL::${entity.table}, ${data}::json) RETURNING *),
    o AS MATERIALIZED (SELECT t.id, ${jsonObject(entity)} AS j FROM t)${eventsOfRowsCte(
      rows.map((row) => row.id as string),
      eventType,
      params,
    )}
    SELECT count(*)::int AS n FROM o`;
  await query(sql, params.values, on);
  forgetTotals(entity.table);
}

/**
 * Updates each row `rows` names by `id` with its own values (and sets updated_at), writing each
 * row's events in the same statement: the set-based form of updateJson. Rows as insertRows takes
 * them. `where` (SQL over `t`) leaves out the rows it does not hold for, with their events.
 * Returns the IDs of the rows updated.
 */
export async function updateRows(
  entity: EntityTable,
  rows: readonly Columns[],
  eventType: EventTypes,
  on?: Queryable,
  where = "TRUE",
): Promise<string[]> {
  if (rows.length === 0) return [];
  const names = rowColumns(rows).filter((name) => name !== "id");
  const params = new Params();
  const data = params.add(storableJson(rows));
  const sets = ["updated_at = now()", ...names.map((name) => `${name} = v.${name}`)];
  const sql = `WITH v AS MATERIALIZED (SELECT * FROM json_populate_recordset(NULL::${entity.table}, ${data}::json)),
    t AS (UPDATE ${entity.table} t SET ${sets.join(", ")} FROM v WHERE t.id = v.id AND (${where}) RETURNING t.*),
    o AS MATERIALIZED (SELECT t.id, ${jsonObject(entity)} AS j FROM t)${eventsOfRowsCte(
      rows.map((row) => row.id as string),
      eventType,
      params,
    )}
    SELECT o.id FROM o`;
  const updated = await query<{ id: string }>(sql, params.values, on);
  forgetTotals(entity.table);
  return updated.map((row) => row.id);
}

/**
 * Deletes the rows of `entity` that `where` (over the alias `t`) selects; returns their IDs. Rows
 * of other tables go by the schema's ON DELETE rules. Writes no event: a deletion the API family
 * announces (e.g. payment_method.deleted) writes its own.
 */
export async function deleteRows(
  entity: EntityTable,
  where: { sql: string; values: unknown[] },
  on?: Queryable,
): Promise<string[]> {
  const rows = await query<{ id: string }>(
    `DELETE FROM ${entity.table} t WHERE ${where.sql} RETURNING t.id`,
    where.values,
    on,
  );
  forgetTotals(entity.table);
  return rows.map((row) => row.id);
}

/** PostgreSQL's unique violation, with the constraint it hit. */
export function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string };
  return e?.code === "23505" ? (e.constraint ?? "") : null;
}

export function foreignKeyViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === "23503";
}
