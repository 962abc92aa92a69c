-- Rebuilds adjustment_metrics_daily from the approved refunds and chargebacks (for an operator after
-- repairing data by hand). The lock makes approvals committing meanwhile wait, then add on top of
-- the rebuilt rows, so none is lost or counted twice.
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
