-- Adds checkouts opened and completed to the slot of `at` (when they were opened: counted by
-- cohort, so a day's rate never exceeds 1; the "Checkout conversion" section of
-- prisma/migrations/20261124030000_subscription_metrics/migration.sql).
CREATE OR REPLACE FUNCTION "checkout_metrics_add"(at timestamptz, opened integer, completed integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "checkout_metrics_daily" AS r ("day", "slot", "count", "completed_count", "updated_at")
  VALUES ((at AT TIME ZONE 'UTC')::date, "metrics_slot"(at), opened, completed, clock_timestamp())
  ON CONFLICT ("day", "slot") DO UPDATE
    SET "count" = r."count" + EXCLUDED."count",
        "completed_count" = r."completed_count" + EXCLUDED."completed_count",
        "updated_at" = EXCLUDED."updated_at"
$$;
