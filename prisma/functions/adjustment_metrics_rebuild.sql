CREATE OR REPLACE FUNCTION "adjustment_metrics_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "adjustment_metrics_daily" IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM "adjustment_metrics_daily";
  INSERT INTO "adjustment_metrics_daily" ("day", "slot", "currency_code", "action", "amount", "count", "updated_at")
  SELECT ("updated_at" AT TIME ZONE 'UTC')::date, "metrics_slot"("updated_at"), "currency_code", "action", sum("total"),
         count(*), clock_timestamp()
    FROM "adjustments"
   WHERE "status" = 'approved' AND "action" IN ('refund', 'chargeback')
   GROUP BY 1, 2, 3, 4;
END
$$;
