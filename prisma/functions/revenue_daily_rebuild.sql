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
