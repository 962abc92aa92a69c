-- Adds an adjustment that has just become `approved` to its slot's row of adjustment_metrics_daily
-- (on its updated_at, with its `total`), and takes one that leaves `approved` (reversed) out again.
-- What counts as a refund or a chargeback: the "Refunds and chargebacks" section of
-- prisma/migrations/20261124030000_subscription_metrics/migration.sql.
CREATE OR REPLACE FUNCTION "adjustment_metrics_add"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
  sign integer;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."status" = 'approved' THEN
    r := OLD; sign := -1;
  ELSE
    r := NEW; sign := 1;
  END IF;
  INSERT INTO "adjustment_metrics_daily" AS d ("day", "slot", "currency_code", "action", "amount", "count", "updated_at")
  VALUES ((r."updated_at" AT TIME ZONE 'UTC')::date, "metrics_slot"(r."updated_at"), r."currency_code", r."action",
          sign * r."total", sign, clock_timestamp())
  ON CONFLICT ("day", "slot", "action", "currency_code") DO UPDATE
    SET "amount" = d."amount" + EXCLUDED."amount",
        "count" = d."count" + EXCLUDED."count",
        "updated_at" = EXCLUDED."updated_at";
  RETURN NULL;
END
$$;
