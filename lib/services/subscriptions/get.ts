/** GET /subscriptions and GET /subscriptions/{subscription_id}. */

import { SUBSCRIPTION, subscriptionEntity } from "../../db/entities/subscription.ts";
import { getJson, type JsonPage, listJson, Params, type RawJson } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import type { ListSubscriptionsQuery, Subscription, SubscriptionInclude } from "../../schemas/subscription.ts";
import { includePreviews } from "./preview.ts";

/**
 * The subscription; `include` adds the previews (`next_transaction`,
 * `recurring_transaction_details`), computed by the same totals engine that bills
 * (lib/services/subscriptions/preview.ts).
 */
export async function getSubscription(
  id: string,
  include?: readonly SubscriptionInclude[],
): Promise<RawJson<Subscription>> {
  const json = await getJson(SUBSCRIPTION, "t.id = $1", [id]);
  if (!json) throw notFound(id);
  if (!include?.length) return json;
  return includePreviews(json, include);
}

export function listSubscriptions(q: ListSubscriptionsQuery): Promise<JsonPage> {
  const params = new Params();
  const filters: string[] = [];
  if (q.id) filters.push(params.oneOf("t.id", q.id));
  if (q.status) filters.push(params.oneOf("t.status", q.status));
  if (q.customer_id) filters.push(params.oneOf("t.customer_id", q.customer_id));
  if (q.address_id) filters.push(params.oneOf("t.address_id", q.address_id));
  if (q.collection_mode) filters.push(`t.collection_mode = ${params.add(q.collection_mode)}`);
  if (q.scheduled_change_action)
    filters.push(params.oneOf("(t.scheduled_change->>'action')", q.scheduled_change_action));
  if (q.price_id) {
    filters.push(
      `EXISTS (SELECT 1 FROM subscription_items i WHERE i.subscription_id = t.id AND ${params.oneOf("i.price_id", q.price_id)})`,
    );
  }
  if (q["next_billed_at[GTE]"])
    filters.push(`t.next_billed_at >= ${params.add(q["next_billed_at[GTE]"])}::timestamptz`);
  if (q["next_billed_at[LT]"]) filters.push(`t.next_billed_at < ${params.add(q["next_billed_at[LT]"])}::timestamptz`);
  return listJson(subscriptionEntity(q.include), {
    filters,
    params,
    orderBy: q.order_by,
    after: q.after,
    perPage: q.per_page,
  });
}
