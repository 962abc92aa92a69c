/** GET /transactions: the filters of the query, keyset-paginated. */
import { transactionEntity } from "../../db/entities/transaction.ts";
import { type JsonPage, listJson, Params } from "../../db/sql.ts";
import { type ListTransactionsQuery, RANGE_OPERATORS, rangeFilters } from "../../schemas/transaction.ts";

/**
 * An unresolved payment failure: the newest payment (payments are newest first) is an error, and the
 * transaction is neither paid nor canceled since. What Home's "Failed payments" counts.
 */
const UNRESOLVED_PAYMENT_FAILURE = `coalesce(t.status NOT IN ('completed', 'paid', 'canceled')
  AND t.payments->0->>'status' = 'error', false)`;

export function listTransactions(q: ListTransactionsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.id) filters.push(params.oneOf("t.id", q.id));
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  if (q.customer_id) filters.push(params.oneOf("t.customer_id", q.customer_id));
  if (q.subscription_id) filters.push(params.oneOf("t.subscription_id", q.subscription_id));
  if (q.invoice_number) filters.push(params.oneOf("t.invoice_number", q.invoice_number));
  if (q.collection_mode) filters.push(`t.collection_mode = ${params.add(q.collection_mode)}`);
  if (q.origin) filters.push(params.oneOf("t.origin", q.origin));
  if (q.payment_failed !== undefined) filters.push(`${q.payment_failed ? "" : "NOT "}(${UNRESOLVED_PAYMENT_FAILURE})`);
  for (const [field, op, value] of rangeFilters(q)) {
    filters.push(`t.${field} ${op ? RANGE_OPERATORS[op] : "="} ${params.add(value)}::timestamptz`);
  }
  return listJson(transactionEntity(q.include), {
    filters,
    params,
    orderBy: q.order_by,
    after: q.after,
    perPage: q.per_page,
  });
}
