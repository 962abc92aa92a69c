-- An item added, removed or changed: brings its subscription's MRR movements up to date (both
-- subscriptions', when the item moved from one to another). Called at COMMIT: see the triggers.
CREATE OR REPLACE FUNCTION "subscription_items_metrics_changed"() RETURNS trigger
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
