-- Adds one movement to its slot's rollup row.
CREATE OR REPLACE FUNCTION "subscription_metrics_add"(day date, slot smallint, currency text, movement text, mrr_before bigint,
                                           mrr_after bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "subscription_metrics_daily" AS r ("day", "slot", "currency_code", "new_mrr", "expansion_mrr",
    "contraction_mrr", "churn_mrr", "reactivation_mrr", "new_subscribers", "reactivated_subscribers",
    "churned_subscribers", "updated_at")
  VALUES (day, slot, currency,
          CASE WHEN movement = 'new' THEN mrr_after ELSE 0 END,
          CASE WHEN movement = 'expansion' THEN mrr_after - mrr_before ELSE 0 END,
          CASE WHEN movement = 'contraction' THEN mrr_before - mrr_after ELSE 0 END,
          CASE WHEN movement = 'churn' THEN mrr_before ELSE 0 END,
          CASE WHEN movement = 'reactivation' THEN mrr_after ELSE 0 END,
          CASE WHEN movement = 'new' THEN 1 ELSE 0 END,
          CASE WHEN movement = 'reactivation' THEN 1 ELSE 0 END,
          CASE WHEN movement = 'churn' THEN 1 ELSE 0 END,
          clock_timestamp())
  ON CONFLICT ("day", "slot", "currency_code") DO UPDATE
    SET "new_mrr" = r."new_mrr" + EXCLUDED."new_mrr",
        "expansion_mrr" = r."expansion_mrr" + EXCLUDED."expansion_mrr",
        "contraction_mrr" = r."contraction_mrr" + EXCLUDED."contraction_mrr",
        "churn_mrr" = r."churn_mrr" + EXCLUDED."churn_mrr",
        "reactivation_mrr" = r."reactivation_mrr" + EXCLUDED."reactivation_mrr",
        "new_subscribers" = r."new_subscribers" + EXCLUDED."new_subscribers",
        "reactivated_subscribers" = r."reactivated_subscribers" + EXCLUDED."reactivated_subscribers",
        "churned_subscribers" = r."churned_subscribers" + EXCLUDED."churned_subscribers",
        "updated_at" = EXCLUDED."updated_at"
$$;
