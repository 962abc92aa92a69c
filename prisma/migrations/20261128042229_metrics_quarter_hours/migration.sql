-- AlterTable
ALTER TABLE "revenue_daily" DROP CONSTRAINT "revenue_daily_pkey",
ADD COLUMN     "slot" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "revenue_daily_pkey" PRIMARY KEY ("day", "slot", "currency_code");

-- AlterTable
ALTER TABLE "subscription_metrics_daily" DROP CONSTRAINT "subscription_metrics_daily_pkey",
ADD COLUMN     "slot" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "subscription_metrics_daily_pkey" PRIMARY KEY ("day", "slot", "currency_code");

-- AlterTable
ALTER TABLE "adjustment_metrics_daily" DROP CONSTRAINT "adjustment_metrics_daily_pkey",
ADD COLUMN     "slot" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "adjustment_metrics_daily_pkey" PRIMARY KEY ("day", "slot", "action", "currency_code");

-- AlterTable
ALTER TABLE "checkout_metrics_daily" DROP CONSTRAINT "checkout_metrics_daily_pkey",
ADD COLUMN     "slot" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "checkout_metrics_daily_pkey" PRIMARY KEY ("day", "slot");

-- Written by hand.
--
-- Days in the account's time zone (issue 26, item 11). The metrics rollups were keyed by UTC day,
-- which cannot be cut into the days of another zone. Each row is now a quarter-hour `slot` (0-95)
-- of its UTC `day`: every zone's offset is a whole number of quarter-hours (+05:45, -03:30, ...),
-- so a day in any zone, DST changes included, is exactly a set of slots. The API's metrics still
-- answer UTC days by default (the API family's contract: the sum of a day's slots); the dashboard
-- asks for the account's zone with `time_zone` (ours, lib/services/metrics/range.ts).
-- What each rollup counts is unchanged; only the key is finer. Existing rows are rebuilt from the
-- rows they count (the rebuild functions below), which places each in its slot.

-- The quarter-hour of the UTC day `at` falls in.
CREATE FUNCTION "metrics_slot"(at timestamptz) RETURNS smallint
LANGUAGE sql IMMUTABLE AS $$
  SELECT (extract(hour FROM at AT TIME ZONE 'UTC') * 4 + floor(extract(minute FROM at AT TIME ZONE 'UTC') / 15))::smallint
$$;

-- The day, in zone `zone`, of the slot `slot` of UTC day `day` (its start).
CREATE FUNCTION "metrics_local_day"(day date, slot smallint, zone text) RETURNS date
LANGUAGE sql STABLE AS $$
  SELECT (((day + slot * interval '15 minutes') AT TIME ZONE 'UTC') AT TIME ZONE zone)::date
$$;

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

DROP FUNCTION "subscription_metrics_add"(date, text, text, bigint, bigint);

-- Adds one movement to its slot's rollup row.
CREATE FUNCTION "subscription_metrics_add"(day date, slot smallint, currency text, movement text, mrr_before bigint,
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

CREATE OR REPLACE FUNCTION "subscription_metrics_move"(sub_id text, moved_at timestamptz, currency text, movement text,
                                            mrr_before bigint, mrr_after bigint, active_before boolean,
                                            active_after boolean) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  d date := (moved_at AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO "subscription_mrr_movements" ("subscription_id", "at", "day", "currency_code", "movement",
    "mrr_before", "mrr_after", "active_before", "active_after")
  VALUES (sub_id, moved_at, d, currency, movement, mrr_before, mrr_after, active_before, active_after);
  PERFORM "subscription_metrics_add"(d, "metrics_slot"(moved_at), currency, movement, mrr_before, mrr_after);
END
$$;

CREATE OR REPLACE FUNCTION "subscription_metrics_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  sub_id text;
BEGIN
  LOCK TABLE "subscription_metrics_daily" IN SHARE ROW EXCLUSIVE MODE;
  -- The subscriptions whose contribution now differs from their last movement, found in one pass.
  FOR sub_id IN
    WITH now_rows AS (
      SELECT t."id", t."currency_code", true AS active,
             coalesce(round(sum("metrics_item_monthly"(i."price", i."quantity", t."currency_code", a."country_code",
                                  t."billing_cycle_interval", t."billing_cycle_frequency"))), 0)::bigint AS mrr
        FROM "subscriptions" t
        LEFT JOIN "addresses" a ON a."id" = t."address_id"
        LEFT JOIN "subscription_items" i ON i."subscription_id" = t."id" AND i."recurring"
       WHERE t."status" IN ('active', 'past_due')
       GROUP BY t."id", t."currency_code"
    ), last_rows AS (
      SELECT DISTINCT ON (m."subscription_id") m."subscription_id", m."currency_code", m."active_after", m."mrr_after"
        FROM "subscription_mrr_movements" m ORDER BY m."subscription_id", m."id" DESC
    )
    SELECT coalesce(n."id", l."subscription_id")
      FROM now_rows n FULL JOIN last_rows l ON l."subscription_id" = n."id"
     WHERE coalesce(n."active", false) IS DISTINCT FROM coalesce(l."active_after", false)
        OR coalesce(n."mrr", 0) IS DISTINCT FROM coalesce(l."mrr_after", 0)
        OR (n."active" AND n."currency_code" IS DISTINCT FROM l."currency_code")
  LOOP
    PERFORM "subscription_metrics_sync"(sub_id);
  END LOOP;
  DELETE FROM "subscription_metrics_daily";
  INSERT INTO "subscription_metrics_daily" ("day", "slot", "currency_code", "new_mrr", "expansion_mrr",
    "contraction_mrr", "churn_mrr", "reactivation_mrr", "new_subscribers", "reactivated_subscribers",
    "churned_subscribers", "updated_at")
  SELECT m."day", "metrics_slot"(m."at"), m."currency_code",
         coalesce(sum(m."mrr_after") FILTER (WHERE m."movement" = 'new'), 0),
         coalesce(sum(m."mrr_after" - m."mrr_before") FILTER (WHERE m."movement" = 'expansion'), 0),
         coalesce(sum(m."mrr_before" - m."mrr_after") FILTER (WHERE m."movement" = 'contraction'), 0),
         coalesce(sum(m."mrr_before") FILTER (WHERE m."movement" = 'churn'), 0),
         coalesce(sum(m."mrr_after") FILTER (WHERE m."movement" = 'reactivation'), 0),
         count(*) FILTER (WHERE m."movement" = 'new'),
         count(*) FILTER (WHERE m."movement" = 'reactivation'),
         count(*) FILTER (WHERE m."movement" = 'churn'),
         clock_timestamp()
    FROM "subscription_mrr_movements" m
   GROUP BY 1, 2, 3;
END
$$;

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

DROP FUNCTION "checkout_metrics_add"(date, integer, integer);

CREATE FUNCTION "checkout_metrics_add"(at timestamptz, opened integer, completed integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "checkout_metrics_daily" AS r ("day", "slot", "count", "completed_count", "updated_at")
  VALUES ((at AT TIME ZONE 'UTC')::date, "metrics_slot"(at), opened, completed, clock_timestamp())
  ON CONFLICT ("day", "slot") DO UPDATE
    SET "count" = r."count" + EXCLUDED."count",
        "completed_count" = r."completed_count" + EXCLUDED."completed_count",
        "updated_at" = EXCLUDED."updated_at"
$$;

CREATE OR REPLACE FUNCTION "transactions_checkout_metrics"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  was boolean;
  now_is boolean;
BEGIN
  now_is := NEW."origin" IN ('api', 'web') AND NEW."collection_mode" = 'automatic';
  IF TG_OP = 'INSERT' THEN
    PERFORM "checkout_metrics_add"(NEW."created_at", 1, CASE WHEN NEW."status" = 'completed' THEN 1 ELSE 0 END);
    RETURN NULL;
  END IF;
  was := OLD."origin" IN ('api', 'web') AND OLD."collection_mode" = 'automatic';
  -- Leaving or joining the checkouts (a change of collection mode), or completing one.
  PERFORM "checkout_metrics_add"(NEW."created_at",
    (CASE WHEN now_is THEN 1 ELSE 0 END) - (CASE WHEN was THEN 1 ELSE 0 END),
    (CASE WHEN now_is AND NEW."status" = 'completed' THEN 1 ELSE 0 END)
      - (CASE WHEN was AND OLD."status" = 'completed' THEN 1 ELSE 0 END));
  RETURN NULL;
END
$$;

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

-- Rebuild: every existing row into its slot.
SELECT "revenue_daily_rebuild"();
SELECT "subscription_metrics_rebuild"();
SELECT "adjustment_metrics_rebuild"();
SELECT "checkout_metrics_rebuild"();
