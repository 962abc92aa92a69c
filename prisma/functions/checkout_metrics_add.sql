CREATE OR REPLACE FUNCTION "checkout_metrics_add"(at timestamptz, opened integer, completed integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "checkout_metrics_daily" AS r ("day", "slot", "count", "completed_count", "updated_at")
  VALUES ((at AT TIME ZONE 'UTC')::date, "metrics_slot"(at), opened, completed, clock_timestamp())
  ON CONFLICT ("day", "slot") DO UPDATE
    SET "count" = r."count" + EXCLUDED."count",
        "completed_count" = r."completed_count" + EXCLUDED."completed_count",
        "updated_at" = EXCLUDED."updated_at"
$$;
