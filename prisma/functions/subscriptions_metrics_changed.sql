-- A subscription inserted, changed or deleted: brings its MRR movements up to date. Called at
-- COMMIT: see the triggers.
CREATE OR REPLACE FUNCTION "subscriptions_metrics_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "subscription_metrics_sync"(CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END);
  RETURN NULL;
END
$$;
