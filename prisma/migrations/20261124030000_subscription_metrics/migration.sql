-- CreateTable
CREATE TABLE "subscription_mrr_movements" (
    "id" BIGSERIAL NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL,
    "day" DATE NOT NULL,
    "currency_code" TEXT NOT NULL,
    "movement" TEXT NOT NULL,
    "mrr_before" BIGINT NOT NULL,
    "mrr_after" BIGINT NOT NULL,
    "active_before" BOOLEAN NOT NULL,
    "active_after" BOOLEAN NOT NULL,

    CONSTRAINT "subscription_mrr_movements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_metrics_daily" (
    "day" DATE NOT NULL,
    "currency_code" TEXT NOT NULL,
    "new_mrr" BIGINT NOT NULL DEFAULT 0,
    "expansion_mrr" BIGINT NOT NULL DEFAULT 0,
    "contraction_mrr" BIGINT NOT NULL DEFAULT 0,
    "churn_mrr" BIGINT NOT NULL DEFAULT 0,
    "reactivation_mrr" BIGINT NOT NULL DEFAULT 0,
    "new_subscribers" INTEGER NOT NULL DEFAULT 0,
    "reactivated_subscribers" INTEGER NOT NULL DEFAULT 0,
    "churned_subscribers" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "subscription_metrics_daily_pkey" PRIMARY KEY ("day","currency_code")
);

-- CreateTable
CREATE TABLE "adjustment_metrics_daily" (
    "day" DATE NOT NULL,
    "currency_code" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "amount" BIGINT NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "adjustment_metrics_daily_pkey" PRIMARY KEY ("day","action","currency_code")
);

-- CreateTable
CREATE TABLE "checkout_metrics_daily" (
    "day" DATE NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    "completed_count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkout_metrics_daily_pkey" PRIMARY KEY ("day")
);

-- CreateIndex
CREATE INDEX "subscription_mrr_movements_subscription_id_id_idx" ON "subscription_mrr_movements"("subscription_id", "id");

-- Written by hand (none of this can be declared in schema.prisma).
--
-- The metrics of subscriptions (MRR, its change, active subscribers), refunds, chargebacks and
-- checkout conversion are answered from the daily rollups above (lib/services/metrics/), which
-- triggers keep in the database transaction of the change they count, whatever code path makes
-- it (the API, the renewal engine, batch renewals, the test clock, imports, an operator's SQL):
-- nothing has to call anything. Each rollup has a `*_rebuild()` function that recomputes it from
-- the rows it counts (the seed calls them; an operator may after repairing data by hand).

ALTER TABLE "subscription_metrics_daily" ADD CONSTRAINT "subscription_metrics_daily_check"
  CHECK ("new_mrr" >= 0 AND "expansion_mrr" >= 0 AND "contraction_mrr" >= 0 AND "churn_mrr" >= 0
         AND "reactivation_mrr" >= 0 AND "new_subscribers" >= 0 AND "reactivated_subscribers" >= 0
         AND "churned_subscribers" >= 0);
ALTER TABLE "subscription_mrr_movements" ADD CONSTRAINT "subscription_mrr_movements_movement_check"
  CHECK ("movement" IN ('new', 'expansion', 'contraction', 'churn', 'reactivation'));

-- Few rows, each updated by many changes: room on each page keeps the updates HOT, and frequent
-- vacuuming keeps the tables a few pages long (as revenue_daily).
ALTER TABLE "subscription_metrics_daily" SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 500, autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 500);
ALTER TABLE "adjustment_metrics_daily" SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 500, autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 500);
ALTER TABLE "checkout_metrics_daily" SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 500, autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 500);

-- ---------------------------------------------------------------------------------------------
-- MRR and active subscribers
--
-- Decisions (the API family says "current MRR; includes new, upgrades, downgrades, churn; excludes
-- one-time payments and fees" and "paying users with active subs; excludes trialing"):
-- * A subscription contributes to MRR and counts as an active subscriber while its status is
--   `active` or `past_due`. Past due is still a paying customer whose payment is being retried
--   (dunning): it leaves when dunning ends by canceling or pausing it. `trialing` (not paying yet),
--   `paused` and `canceled` contribute nothing.
-- * Its MRR is the sum over its recurring items (subscription_items; one-time charges live in
--   subscription_charges and never count) of unit price x quantity, normalised to a month: a cycle
--   of `frequency` months divides by frequency, a year by 12 x frequency, a week multiplies by
--   365 / (7 x 12 x frequency), a day by 365 / (12 x frequency); rounded half away from zero once
--   per subscription, in minor units of its currency. The unit price is the one billing uses
--   (lib/billing/totals.ts unitPriceFor): the override for the address's country in the
--   subscription's currency, else the price's unit price. Before tax for prices with tax_mode
--   external (tax-inclusive prices are taken as they are), and before fees.
-- * Discounts do not reduce MRR (list MRR). A discount ends at a moment in time (its last
--   discounted period), not by a change of any row, so an MRR net of discounts could only be kept
--   by work at every renewal; the renewal path stays free of metrics work instead.
-- * A change counts at the subscription's "now" (its test clock when ahead of the real clock, as
--   the engine's lib/services/subscriptions/billing.ts subscriptionNow), on that UTC day; a status
--   change the engine applies as of a later moment (see subscription_metrics_sync) at that moment.
--   An import of history may set `billing.metrics_at` (SET LOCAL) to the moment its changes
--   happened.
-- * Movements: new (first time active), reactivation (active again after a churn: resume, or a
--   canceled/paused one coming back), churn (active -> paused, canceled or deleted), expansion and
--   contraction (the MRR of an active subscription going up or down). Trial -> active is new.
--
-- How: deferred constraint triggers on `subscriptions` (status, currency, address or cycle changed)
-- and `subscription_items` (added, removed, quantity or price changed) call
-- subscription_metrics_sync(id) at COMMIT, once the operation has written all of its rows (so an
-- item replaced by DELETE + INSERT is one expansion or contraction, not a churn and a new). It
-- compares the subscription's contribution now with its last movement and, when they differ,
-- appends a movement and adds it to the day's rollup row. A renewal that changes nothing of this
-- (dates, previously_billed_at, the same status) queues no event at all: the triggers' WHEN and
-- column lists filter it in the executor.

-- A decimal string of minor units as numeric; anything else (never stored) as 0, so that a bad
-- snapshot can never fail the business change that carries it.
CREATE FUNCTION "metrics_minor"(value text) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value ~ '^-?[0-9]{1,18}$' THEN value::numeric ELSE 0 END
$$;

-- Months per billing period of `frequency` x `interval`, inverted: the factor from one period's
-- amount to a month's (see the decisions above). Unknown intervals count nothing.
CREATE FUNCTION "metrics_monthly_factor"(interval_name text, frequency integer) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN frequency IS NULL OR frequency <= 0 THEN 0
              WHEN interval_name = 'month' THEN 1::numeric / frequency
              WHEN interval_name = 'year' THEN 1::numeric / (12 * frequency)
              WHEN interval_name = 'week' THEN 365::numeric / (84 * frequency)
              WHEN interval_name = 'day' THEN 365::numeric / (12 * frequency)
              ELSE 0 END
$$;

-- One item's monthly amount (unnormalised by rounding): the formula of the decisions above, in one
-- place for the triggers (subscription_mrr_amount) and the rebuild (set-based).
CREATE FUNCTION "metrics_item_monthly"(price json, quantity integer, currency text, country text,
                                       cycle_interval text, cycle_frequency integer) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT "metrics_minor"(coalesce(
           (SELECT o -> 'unit_price' ->> 'amount'
              FROM json_array_elements(CASE WHEN json_typeof(price -> 'unit_price_overrides') = 'array'
                                            THEN price -> 'unit_price_overrides' END) o
             WHERE o -> 'unit_price' ->> 'currency_code' = currency
               AND json_typeof(o -> 'country_codes') = 'array'
               AND EXISTS (SELECT 1 FROM json_array_elements_text(o -> 'country_codes') c
                            WHERE upper(c) = upper(country))
             LIMIT 1),
           price -> 'unit_price' ->> 'amount'))
         * quantity
         * "metrics_monthly_factor"(coalesce(price -> 'billing_cycle' ->> 'interval', cycle_interval),
             coalesce(CASE WHEN (price -> 'billing_cycle' ->> 'frequency') ~ '^[0-9]{1,6}$'
                           THEN (price -> 'billing_cycle' ->> 'frequency')::integer END, cycle_frequency))
$$;

-- The subscription's MRR from its items now (whatever its status), minor units of `currency`,
-- rounded once. PL/pgSQL rather than SQL so that its plan is prepared once per session.
CREATE FUNCTION "subscription_mrr_amount"(sub_id text, currency text, country text, cycle_interval text,
                                          cycle_frequency integer) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT coalesce(round(sum("metrics_item_monthly"(i."price", i."quantity", currency, country, cycle_interval,
                                                     cycle_frequency))), 0)::bigint
      FROM "subscription_items" i
     WHERE i."subscription_id" = sub_id AND i."recurring");
END
$$;

-- Adds one movement to its day's rollup row.
CREATE FUNCTION "subscription_metrics_add"(day date, currency text, movement text, mrr_before bigint,
                                           mrr_after bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "subscription_metrics_daily" AS r ("day", "currency_code", "new_mrr", "expansion_mrr",
    "contraction_mrr", "churn_mrr", "reactivation_mrr", "new_subscribers", "reactivated_subscribers",
    "churned_subscribers", "updated_at")
  VALUES (day, currency,
          CASE WHEN movement = 'new' THEN mrr_after ELSE 0 END,
          CASE WHEN movement = 'expansion' THEN mrr_after - mrr_before ELSE 0 END,
          CASE WHEN movement = 'contraction' THEN mrr_before - mrr_after ELSE 0 END,
          CASE WHEN movement = 'churn' THEN mrr_before ELSE 0 END,
          CASE WHEN movement = 'reactivation' THEN mrr_after ELSE 0 END,
          CASE WHEN movement = 'new' THEN 1 ELSE 0 END,
          CASE WHEN movement = 'reactivation' THEN 1 ELSE 0 END,
          CASE WHEN movement = 'churn' THEN 1 ELSE 0 END,
          clock_timestamp())
  ON CONFLICT ("day", "currency_code") DO UPDATE
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

-- Appends a movement and adds it to the rollup.
CREATE FUNCTION "subscription_metrics_move"(sub_id text, moved_at timestamptz, currency text, movement text,
                                            mrr_before bigint, mrr_after bigint, active_before boolean,
                                            active_after boolean) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  d date := (moved_at AT TIME ZONE 'UTC')::date;
BEGIN
  INSERT INTO "subscription_mrr_movements" ("subscription_id", "at", "day", "currency_code", "movement",
    "mrr_before", "mrr_after", "active_before", "active_after")
  VALUES (sub_id, moved_at, d, currency, movement, mrr_before, mrr_after, active_before, active_after);
  PERFORM "subscription_metrics_add"(d, currency, movement, mrr_before, mrr_after);
END
$$;

-- Brings the subscription's movements up to date with its rows (see above). Idempotent: called
-- again with nothing changed, it reads two rows and writes nothing.
CREATE FUNCTION "subscription_metrics_sync"(sub_id text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  s RECORD;
  found_sub boolean;
  last_found boolean;
  prev_mrr bigint := 0;
  prev_active boolean := false;
  prev_currency text;
  now_mrr bigint := 0;
  now_active boolean := false;
  currency text;
  change_at timestamptz;
  country text;
BEGIN
  SELECT t."status", t."currency_code", t."address_id", t."clock_at", t."billing_cycle_interval",
         t."billing_cycle_frequency", t."canceled_at", t."paused_at", t."current_period_starts_at"
    INTO s FROM "subscriptions" t WHERE t."id" = sub_id
     -- Two transactions committing changes of one subscription take turns here (each operation
     -- already holds this lock), so each compares with the other's movement, never the same one.
     FOR NO KEY UPDATE;
  found_sub := FOUND;
  SELECT m."mrr_after", m."active_after", m."currency_code" INTO prev_mrr, prev_active, prev_currency
    FROM "subscription_mrr_movements" m WHERE m."subscription_id" = sub_id ORDER BY m."id" DESC LIMIT 1;
  last_found := FOUND;
  IF NOT last_found THEN
    prev_mrr := 0;
    prev_active := false;
  END IF;

  IF found_sub AND s."status" IN ('active', 'past_due') THEN
    now_active := true;
    SELECT a."country_code" INTO country FROM "addresses" a WHERE a."id" = s."address_id";
    now_mrr := "subscription_mrr_amount"(sub_id, s."currency_code", country, s."billing_cycle_interval",
                                         s."billing_cycle_frequency");
  END IF;
  currency := CASE WHEN found_sub THEN s."currency_code" ELSE prev_currency END;

  IF now_active = prev_active AND now_mrr = prev_mrr
     AND (NOT now_active OR currency IS NOT DISTINCT FROM prev_currency) THEN
    RETURN;
  END IF;

  -- When it happened: the subscription's now (its test clock when ahead), or the moment the row
  -- says the new status began when that is later: the engine runs each due action as of its own
  -- time (a test clock advanced over a trial's end, a dunning's last retry, a scheduled pause or
  -- cancel), before the clock itself is moved.
  change_at := coalesce(nullif(current_setting('billing.metrics_at', true), '')::timestamptz,
                 CASE WHEN found_sub THEN greatest(now(), s."clock_at",
                        CASE s."status" WHEN 'canceled' THEN s."canceled_at" WHEN 'paused' THEN s."paused_at"
                                        ELSE s."current_period_starts_at" END)
                      ELSE now() END);

  IF now_active AND NOT prev_active THEN
    PERFORM "subscription_metrics_move"(sub_id, change_at, currency,
      CASE WHEN last_found THEN 'reactivation' ELSE 'new' END, 0, now_mrr, false, true);
  ELSIF prev_active AND NOT now_active THEN
    PERFORM "subscription_metrics_move"(sub_id, change_at, prev_currency, 'churn', prev_mrr, 0, true, false);
  ELSIF currency IS DISTINCT FROM prev_currency THEN
    -- Still active, now billed in another currency: its MRR moves from one currency to the other.
    PERFORM "subscription_metrics_move"(sub_id, change_at, prev_currency, 'contraction', prev_mrr, 0, true, true);
    PERFORM "subscription_metrics_move"(sub_id, change_at, currency, 'expansion', 0, now_mrr, true, true);
  ELSE
    PERFORM "subscription_metrics_move"(sub_id, change_at, currency,
      CASE WHEN now_mrr > prev_mrr THEN 'expansion' ELSE 'contraction' END, prev_mrr, now_mrr, true, true);
  END IF;
END
$$;

CREATE FUNCTION "subscriptions_metrics_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "subscription_metrics_sync"(CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END);
  RETURN NULL;
END
$$;

CREATE FUNCTION "subscription_items_metrics_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "subscription_metrics_sync"(OLD."subscription_id");
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."subscription_id" IS DISTINCT FROM OLD."subscription_id") THEN
    PERFORM "subscription_metrics_sync"(NEW."subscription_id");
  END IF;
  RETURN NULL;
END
$$;

-- Deferred to COMMIT (still inside the writer's transaction): see above.
CREATE CONSTRAINT TRIGGER "subscriptions_metrics_on_insert" AFTER INSERT ON "subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."status" IN ('active', 'past_due'))
  EXECUTE FUNCTION "subscriptions_metrics_changed"();

CREATE CONSTRAINT TRIGGER "subscriptions_metrics_on_update"
  AFTER UPDATE OF "status", "currency_code", "address_id", "billing_cycle_interval", "billing_cycle_frequency"
  ON "subscriptions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status"
        OR OLD."currency_code" IS DISTINCT FROM NEW."currency_code"
        OR OLD."address_id" IS DISTINCT FROM NEW."address_id"
        OR OLD."billing_cycle_interval" IS DISTINCT FROM NEW."billing_cycle_interval"
        OR OLD."billing_cycle_frequency" IS DISTINCT FROM NEW."billing_cycle_frequency")
  EXECUTE FUNCTION "subscriptions_metrics_changed"();

CREATE CONSTRAINT TRIGGER "subscriptions_metrics_on_delete" AFTER DELETE ON "subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION "subscriptions_metrics_changed"();

CREATE CONSTRAINT TRIGGER "subscription_items_metrics_on_insert_delete" AFTER INSERT OR DELETE
  ON "subscription_items" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION "subscription_items_metrics_changed"();

CREATE CONSTRAINT TRIGGER "subscription_items_metrics_on_update"
  AFTER UPDATE OF "quantity", "price", "recurring", "subscription_id"
  ON "subscription_items" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."quantity" IS DISTINCT FROM NEW."quantity"
        OR OLD."price"::text IS DISTINCT FROM NEW."price"::text
        OR OLD."recurring" IS DISTINCT FROM NEW."recurring"
        OR OLD."subscription_id" IS DISTINCT FROM NEW."subscription_id")
  EXECUTE FUNCTION "subscription_items_metrics_changed"();

-- Rebuilds the rollup from the movements, after bringing every subscription's movements up to
-- date with its rows (a subscription whose contribution differs from its last movement, which the
-- triggers make impossible short of data repaired by hand or rows written with the triggers off,
-- gets its movement now). The lock makes changes committing meanwhile wait, then add on top of the
-- rebuilt rows, so none is lost or counted twice.
CREATE FUNCTION "subscription_metrics_rebuild"() RETURNS void
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
  INSERT INTO "subscription_metrics_daily" ("day", "currency_code", "new_mrr", "expansion_mrr",
    "contraction_mrr", "churn_mrr", "reactivation_mrr", "new_subscribers", "reactivated_subscribers",
    "churned_subscribers", "updated_at")
  SELECT m."day", m."currency_code",
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
   GROUP BY m."day", m."currency_code";
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Refunds and chargebacks (adjustments)
--
-- An adjustment counts on the UTC day it became `approved` (its updated_at then; a refund is
-- created pending_approval and approved in the same database transaction, see
-- lib/services/adjustments.ts), with its `total` (what went back to the customer, tax included,
-- minor units of its currency). Refunds exclude chargebacks; chargebacks exclude warnings and
-- reversals (other actions). One that leaves `approved` (reversed) is taken out of its day again.
-- Only refunds and credits are created through the API: chargebacks arrive from a payment
-- provider, which this service does not have yet, so the chargebacks metric counts zero until
-- something writes one (it counts any row written with action `chargeback`).

CREATE FUNCTION "adjustment_metrics_add"() RETURNS trigger
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
  INSERT INTO "adjustment_metrics_daily" AS d ("day", "currency_code", "action", "amount", "count", "updated_at")
  VALUES ((r."updated_at" AT TIME ZONE 'UTC')::date, r."currency_code", r."action", sign * r."total", sign,
          clock_timestamp())
  ON CONFLICT ("day", "action", "currency_code") DO UPDATE
    SET "amount" = d."amount" + EXCLUDED."amount",
        "count" = d."count" + EXCLUDED."count",
        "updated_at" = EXCLUDED."updated_at";
  RETURN NULL;
END
$$;

CREATE TRIGGER "adjustments_metrics_on_insert" AFTER INSERT ON "adjustments"
  FOR EACH ROW WHEN (NEW."status" = 'approved' AND NEW."action" IN ('refund', 'chargeback'))
  EXECUTE FUNCTION "adjustment_metrics_add"();

CREATE TRIGGER "adjustments_metrics_on_approve" AFTER UPDATE OF "status" ON "adjustments"
  FOR EACH ROW WHEN (NEW."action" IN ('refund', 'chargeback') AND OLD."status" IS DISTINCT FROM NEW."status"
                     AND (NEW."status" = 'approved' OR OLD."status" = 'approved'))
  EXECUTE FUNCTION "adjustment_metrics_add"();

CREATE FUNCTION "adjustment_metrics_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "adjustment_metrics_daily" IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM "adjustment_metrics_daily";
  INSERT INTO "adjustment_metrics_daily" ("day", "currency_code", "action", "amount", "count", "updated_at")
  SELECT ("updated_at" AT TIME ZONE 'UTC')::date, "currency_code", "action", sum("total"), count(*), clock_timestamp()
    FROM "adjustments"
   WHERE "status" = 'approved' AND "action" IN ('refund', 'chargeback')
   GROUP BY 1, 2, 3;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Checkout conversion
--
-- A checkout is a transaction a customer pays at a checkout: created through the API or the web
-- (origin api or web; renewals and other subscription transactions are billed, not checked out)
-- and collected automatically (a manually-collected one is an invoice). It is opened when created
-- (the API family creates the transaction when the checkout opens) and converts when it completes.
-- Counted by cohort: on the UTC day it was opened, `count` counts it and `completed_count` counts
-- it once it completes, whenever that is, so a day's rate (completed / opened) never exceeds 1.

CREATE FUNCTION "checkout_metrics_add"(day date, opened integer, completed integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO "checkout_metrics_daily" AS r ("day", "count", "completed_count", "updated_at")
  VALUES (day, opened, completed, clock_timestamp())
  ON CONFLICT ("day") DO UPDATE
    SET "count" = r."count" + EXCLUDED."count",
        "completed_count" = r."completed_count" + EXCLUDED."completed_count",
        "updated_at" = EXCLUDED."updated_at"
$$;

CREATE FUNCTION "transactions_checkout_metrics"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  was boolean;
  now_is boolean;
BEGIN
  now_is := NEW."origin" IN ('api', 'web') AND NEW."collection_mode" = 'automatic';
  IF TG_OP = 'INSERT' THEN
    PERFORM "checkout_metrics_add"((NEW."created_at" AT TIME ZONE 'UTC')::date, 1,
                                   CASE WHEN NEW."status" = 'completed' THEN 1 ELSE 0 END);
    RETURN NULL;
  END IF;
  was := OLD."origin" IN ('api', 'web') AND OLD."collection_mode" = 'automatic';
  -- Leaving or joining the checkouts (a change of collection mode), or completing one.
  PERFORM "checkout_metrics_add"((NEW."created_at" AT TIME ZONE 'UTC')::date,
    (CASE WHEN now_is THEN 1 ELSE 0 END) - (CASE WHEN was THEN 1 ELSE 0 END),
    (CASE WHEN now_is AND NEW."status" = 'completed' THEN 1 ELSE 0 END)
      - (CASE WHEN was AND OLD."status" = 'completed' THEN 1 ELSE 0 END));
  RETURN NULL;
END
$$;

CREATE TRIGGER "transactions_checkout_metrics_on_insert" AFTER INSERT ON "transactions"
  FOR EACH ROW WHEN (NEW."origin" IN ('api', 'web') AND NEW."collection_mode" = 'automatic')
  EXECUTE FUNCTION "transactions_checkout_metrics"();

CREATE TRIGGER "transactions_checkout_metrics_on_update" AFTER UPDATE OF "status", "collection_mode", "origin"
  ON "transactions" FOR EACH ROW
  WHEN ((OLD."origin" IN ('api', 'web') OR NEW."origin" IN ('api', 'web'))
        AND (OLD."collection_mode" IS DISTINCT FROM NEW."collection_mode"
             OR OLD."origin" IS DISTINCT FROM NEW."origin"
             OR ((NEW."status" = 'completed') IS DISTINCT FROM (OLD."status" = 'completed'))))
  EXECUTE FUNCTION "transactions_checkout_metrics"();

CREATE FUNCTION "checkout_metrics_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "checkout_metrics_daily" IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM "checkout_metrics_daily";
  INSERT INTO "checkout_metrics_daily" ("day", "count", "completed_count", "updated_at")
  SELECT ("created_at" AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE "status" = 'completed'),
         clock_timestamp()
    FROM "transactions"
   WHERE "origin" IN ('api', 'web') AND "collection_mode" = 'automatic'
   GROUP BY 1;
END
$$;

-- Backfill: what existed before this migration.
SELECT "subscription_metrics_rebuild"();
SELECT "adjustment_metrics_rebuild"();
SELECT "checkout_metrics_rebuild"();
