-- The revenue rollup, set-based: the transactions one statement made `completed` are added to
-- their (UTC day, quarter-hour slot, currency) in one upsert each, not one per row. A batch of
-- renewals completes hundreds of transactions in one UPDATE; row by row, each upsert made another
-- version of the same row inside one database transaction, so the batch's cost grew with its
-- square. Revenue is "before adjustments" (spec: GET /metrics/revenue) and a completed transaction
-- never leaves `completed`, so each is counted exactly once: on the INSERT or the UPDATE that
-- makes it completed, never again. (Transition tables cannot go with `UPDATE OF status`: the
-- UPDATE trigger compares the old and new rows itself.)
CREATE OR REPLACE FUNCTION "revenue_daily_add_rows"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "revenue_daily" AS r ("day", "slot", "currency_code", "amount", "count", "updated_at")
    SELECT (coalesce(n."completed_at", now()) AT TIME ZONE 'UTC')::date, "metrics_slot"(coalesce(n."completed_at", now())),
           n."currency_code", sum("transaction_earnings"(n."details")), count(*), clock_timestamp()
      FROM "completed_rows" n
     WHERE n."status" = 'completed'
     GROUP BY 1, 2, 3
     ORDER BY 1, 2, 3
    ON CONFLICT ("day", "slot", "currency_code") DO UPDATE
      SET "amount" = r."amount" + EXCLUDED."amount",
          "count" = r."count" + EXCLUDED."count",
          "updated_at" = EXCLUDED."updated_at";
  ELSE
    INSERT INTO "revenue_daily" AS r ("day", "slot", "currency_code", "amount", "count", "updated_at")
    SELECT (coalesce(n."completed_at", now()) AT TIME ZONE 'UTC')::date, "metrics_slot"(coalesce(n."completed_at", now())),
           n."currency_code", sum("transaction_earnings"(n."details")), count(*), clock_timestamp()
      FROM "completed_rows" n JOIN "previous_rows" o ON o."id" = n."id"
     WHERE n."status" = 'completed' AND o."status" IS DISTINCT FROM 'completed'
     GROUP BY 1, 2, 3
     ORDER BY 1, 2, 3
    ON CONFLICT ("day", "slot", "currency_code") DO UPDATE
      SET "amount" = r."amount" + EXCLUDED."amount",
          "count" = r."count" + EXCLUDED."count",
          "updated_at" = EXCLUDED."updated_at";
  END IF;
  RETURN NULL;
END
$$;
