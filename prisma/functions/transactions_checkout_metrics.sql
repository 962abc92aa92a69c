-- Counts a transaction checked out (origin api or web, collected automatically) as opened when it
-- is created, and as completed when it completes, on the slot it was created in (by cohort).
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
