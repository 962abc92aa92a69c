-- Rebuilds the rollup from the movements, after bringing every subscription's movements up to
-- date with its rows (a subscription whose contribution differs from its last movement, which the
-- triggers make impossible short of data repaired by hand or rows written with the triggers off,
-- gets its movement now). The lock makes changes committing meanwhile wait, then add on top of the
-- rebuilt rows, so none is lost or counted twice.
CREATE OR REPLACE FUNCTION "subscription_metrics_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  sub_id text;
BEGIN
  LOCK TABLE "subscription_metrics_daily" IN SHARE ROW EXCLUSIVE MODE;
  -- The subscriptions whose contribution now differs from their last movement, found in one pass.
  FOR sub_id IN
    WITH now_rows AS (
      SELECT t."id", t."currency_code", true AS active,
             coalesce(round(sum("metrics_item_monthly"(i."price", i."quantity", t."currency_code", a."country_code",
                                  t."billing_cycle_interval", t."billing_cycle_frequency"))), 0)::bigint AS mrr
        FROM "subscriptions" t
        LEFT JOIN "addresses" a ON a."id" = t."address_id"
        LEFT JOIN "subscription_items" i ON i."subscription_id" = t."id" AND i."recurring"
       WHERE t."status" IN ('active', 'past_due')
       GROUP BY t."id", t."currency_code"
    ), last_rows AS (
      SELECT DISTINCT ON (m."subscription_id") m."subscription_id", m."currency_code", m."active_after", m."mrr_after"
        FROM "subscription_mrr_movements" m ORDER BY m."subscription_id", m."id" DESC
    )
    SELECT coalesce(n."id", l."subscription_id")
      FROM now_rows n FULL JOIN last_rows l ON l."subscription_id" = n."id"
     WHERE coalesce(n."active", false) IS DISTINCT FROM coalesce(l."active_after", false)
        OR coalesce(n."mrr", 0) IS DISTINCT FROM coalesce(l."mrr_after", 0)
        OR (n."active" AND n."currency_code" IS DISTINCT FROM l."currency_code")
  LOOP
    PERFORM "subscription_metrics_sync"(sub_id);
  END LOOP;
  DELETE FROM "subscription_metrics_daily";
  INSERT INTO "subscription_metrics_daily" ("day", "slot", "currency_code", "new_mrr", "expansion_mrr",
    "contraction_mrr", "churn_mrr", "reactivation_mrr", "new_subscribers", "reactivated_subscribers",
    "churned_subscribers", "updated_at")
  SELECT m."day", "metrics_slot"(m."at"), m."currency_code",
         coalesce(sum(m."mrr_after") FILTER (WHERE m."movement" = 'new'), 0),
         coalesce(sum(m."mrr_after" - m."mrr_before") FILTER (WHERE m."movement" = 'expansion'), 0),
         coalesce(sum(m."mrr_before" - m."mrr_after") FILTER (WHERE m."movement" = 'contraction'), 0),
         coalesce(sum(m."mrr_before") FILTER (WHERE m."movement" = 'churn'), 0),
         coalesce(sum(m."mrr_after") FILTER (WHERE m."movement" = 'reactivation'), 0),
         count(*) FILTER (WHERE m."movement" = 'new'),
         count(*) FILTER (WHERE m."movement" = 'reactivation'),
         count(*) FILTER (WHERE m."movement" = 'churn'),
         clock_timestamp()
    FROM "subscription_mrr_movements" m
   GROUP BY 1, 2, 3;
END
$$;
