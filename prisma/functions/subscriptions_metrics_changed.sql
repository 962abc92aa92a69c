CREATE OR REPLACE FUNCTION "subscriptions_metrics_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "subscription_metrics_sync"(CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END);
  RETURN NULL;
END
$$;
