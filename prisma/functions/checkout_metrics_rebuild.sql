-- Rebuilds checkout_metrics_daily from the transactions checked out (origin api or web, collected
-- automatically), each on the slot it was created in. The lock: as in revenue_daily_rebuild.
CREATE OR REPLACE FUNCTION "checkout_metrics_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "checkout_metrics_daily" IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM "checkout_metrics_daily";
  INSERT INTO "checkout_metrics_daily" ("day", "slot", "count", "completed_count", "updated_at")
  SELECT ("created_at" AT TIME ZONE 'UTC')::date, "metrics_slot"("created_at"), count(*),
         count(*) FILTER (WHERE "status" = 'completed'), clock_timestamp()
    FROM "transactions"
   WHERE "origin" IN ('api', 'web') AND "collection_mode" = 'automatic'
   GROUP BY 1, 2;
END
$$;
