import { ADJUSTMENT } from "../../db/entities/adjustment.ts";
import { type JsonPage, listJson, Params } from "../../db/sql.ts";
import type { ListAdjustmentsQuery } from "../../schemas/adjustment.ts";

export function listAdjustments(q: ListAdjustmentsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.id) filters.push(params.oneOf("t.id", q.id));
  if (q.transaction_id) filters.push(params.oneOf("t.transaction_id", q.transaction_id));
  if (q.subscription_id) filters.push(params.oneOf("t.subscription_id", q.subscription_id));
  if (q.customer_id) filters.push(params.oneOf("t.customer_id", q.customer_id));
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  if (q.action) filters.push(`t.action = ${params.add(q.action)}`);
  return listJson(ADJUSTMENT, { filters, params, orderBy: q.order_by, after: q.after, perPage: q.per_page });
}
