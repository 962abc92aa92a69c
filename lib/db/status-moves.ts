/**
 * The SQL of status moves given as (from, to) pairs (lib/billing/transitions.ts), over a row `t`:
 * a verb updates only the rows `movedFrom` holds for, and sets their status to `movedTo`. The pairs
 * are the code's own constants, written into the SQL as literals.
 */
import { sqlText } from "./sql.ts";

type Pairs = readonly (readonly [from: string, to: string])[];

/** `t.status` is one the pairs move from. */
export function movedFrom(pairs: Pairs): string {
  return `t.status IN (${pairs.map(([from]) => sqlText(from)).join(", ")})`;
}

/** The status each pair moves `t.status` to (NULL, refused by the column, from any other). */
export function movedTo(pairs: Pairs): string {
  const targets = new Set(pairs.map(([, to]) => to));
  const [only] = targets;
  if (targets.size === 1 && only !== undefined) return sqlText(only);
  return `CASE t.status ${pairs.map(([from, to]) => `WHEN ${sqlText(from)} THEN ${sqlText(to)}`).join(" ")} END`;
}
