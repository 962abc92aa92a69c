-- Rebuilds the revenue rollup from the transactions (for an operator after repairing data by hand).
-- A transaction completed without `completed_at` (not expected) counts on the slot of its last
-- change. The lock makes completions committing meanwhile wait, then add on top of the rebuilt
-- rows, so none is lost or counted twice.
CREATE OR REPLACE FUNCTION "revenue_daily_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "revenue_daily" IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM "revenue_daily";
  INSERT INTO "revenue_daily" ("day", "slot", "currency_code", "amount", "count", "updated_at")
  SELECT (coalesce("completed_at", "updated_at") AT TIME ZONE 'UTC')::date,
         "metrics_slot"(coalesce("completed_at", "updated_at")), "currency_code",
         sum("transaction_earnings"("details")), count(*), clock_timestamp()
  FROM "transactions"
  WHERE "status" = 'completed'
  GROUP BY 1, 2, 3;
END
$$;
