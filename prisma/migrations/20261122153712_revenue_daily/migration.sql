-- CreateTable
CREATE TABLE "revenue_daily" (
    "day" DATE NOT NULL,
    "currency_code" TEXT NOT NULL,
    "amount" BIGINT NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revenue_daily_pkey" PRIMARY KEY ("day","currency_code")
);

-- Written by hand (none of this can be declared in schema.prisma).

ALTER TABLE "revenue_daily" ADD CONSTRAINT "revenue_daily_count_check" CHECK ("count" >= 0);

-- Every completion updates one of these few rows: room on each page keeps the updates HOT (no
-- new index entries), and vacuuming after a few hundred changes keeps the table a few pages long.
ALTER TABLE "revenue_daily" SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 500,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 500);

-- A transaction's earnings (net of tax and fees: `details.totals.earnings`, minor units) as a
-- bigint. The payments path fills it in the same UPDATE that sets the status `completed`; a row
-- completed without it (not expected) counts with 0 rather than failing the payment.
CREATE FUNCTION "transaction_earnings"(details json) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN (details -> 'totals' ->> 'earnings') ~ '^-?[0-9]{1,18}$'
              THEN (details -> 'totals' ->> 'earnings')::bigint ELSE 0 END
$$;

-- Adds a transaction that has just become `completed` to its UTC day (of `completed_at`, or now
-- when not set) and currency. Revenue is "before adjustments" (spec: GET /metrics/revenue), so
-- nothing else ever changes the rollup: refunds and credits are adjustments and leave it alone.
-- A completed transaction never leaves `completed` (lib/billing/transaction-states.ts), so each is
-- counted exactly once: on the INSERT or the UPDATE that makes it completed, never again.
CREATE FUNCTION "revenue_daily_add"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "revenue_daily" AS r ("day", "currency_code", "amount", "count", "updated_at")
  VALUES ((coalesce(NEW."completed_at", now()) AT TIME ZONE 'UTC')::date, NEW."currency_code",
          "transaction_earnings"(NEW."details"), 1, clock_timestamp())
  ON CONFLICT ("day", "currency_code") DO UPDATE
    SET "amount" = r."amount" + EXCLUDED."amount",
        "count" = r."count" + 1,
        "updated_at" = EXCLUDED."updated_at";
  RETURN NULL;
END
$$;

-- Two triggers, so that each WHEN filters in the executor and every other write of a transaction
-- (drafts, edits, billing) pays no function call at all.
CREATE TRIGGER "transactions_revenue_on_insert" AFTER INSERT ON "transactions"
  FOR EACH ROW WHEN (NEW."status" = 'completed')
  EXECUTE FUNCTION "revenue_daily_add"();

CREATE TRIGGER "transactions_revenue_on_complete" AFTER UPDATE OF "status" ON "transactions"
  FOR EACH ROW WHEN (NEW."status" = 'completed' AND OLD."status" IS DISTINCT FROM 'completed')
  EXECUTE FUNCTION "revenue_daily_add"();

-- Rebuilds the rollup from the transactions (the backfill below; also for an operator after
-- repairing data by hand). A transaction completed without `completed_at` (not expected) counts on
-- the day of its last change. The lock makes completions committing meanwhile wait, then add on
-- top of the rebuilt rows, so none is lost or counted twice.
CREATE FUNCTION "revenue_daily_rebuild"() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "revenue_daily" IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM "revenue_daily";
  INSERT INTO "revenue_daily" ("day", "currency_code", "amount", "count", "updated_at")
  SELECT (coalesce("completed_at", "updated_at") AT TIME ZONE 'UTC')::date, "currency_code",
         sum("transaction_earnings"("details")), count(*), clock_timestamp()
  FROM "transactions"
  WHERE "status" = 'completed'
  GROUP BY 1, 2;
END
$$;

-- Backfill: the transactions completed before this migration.
SELECT "revenue_daily_rebuild"();
