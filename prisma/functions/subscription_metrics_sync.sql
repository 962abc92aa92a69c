-- Brings the subscription's MRR movements up to date with its rows: compares its contribution now
-- with its last movement and, when they differ, appends a movement (the decisions in
-- prisma/migrations/20261124030000_subscription_metrics/migration.sql). Idempotent: called again with nothing
-- changed, it reads two rows and writes nothing.
CREATE OR REPLACE FUNCTION "subscription_metrics_sync"(sub_id text) RETURNS void
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
