import type pg from "pg";
import { query } from "../db/sql.ts";
import { ApiError } from "../errors.ts";

/**
 * Archived entities cannot be changed, except to unarchive them (a request that sets `status`
 * to `active` may change other fields too): 400 `entity_archived`, as in the API family.
 */
export function assertChangeable(id: string, currentStatus: string, input: { status?: string }): void {
  if (currentStatus === "archived" && input.status !== "active") {
    throw new ApiError("entity_archived", `${id} is archived and cannot be changed; set its status to active first.`);
  }
}

/**
 * Locks row `id` of `table` until the transaction commits (so that a concurrent archive cannot
 * slip between the check and the change) and applies the archived rule to it. Returns the row's
 * status and the `columns` asked for (SQL over `t`), or undefined when there is no such row.
 */
export async function lockChangeable<R extends pg.QueryResultRow = Record<string, never>>(
  client: pg.PoolClient,
  table: string,
  id: string,
  input: { status?: string },
  columns = "",
): Promise<(R & { status: string }) | undefined> {
  const [current] = await query<R & { status: string }>(
    `SELECT t.status${columns ? `, ${columns}` : ""} FROM ${table} t WHERE t.id = $1 FOR UPDATE`,
    [id],
    client,
  );
  if (current) assertChangeable(id, current.status, input);
  return current;
}
