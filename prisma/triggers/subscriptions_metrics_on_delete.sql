-- Deferred to COMMIT, as subscriptions_metrics_on_insert.
DROP TRIGGER IF EXISTS "subscriptions_metrics_on_delete" ON "subscriptions";
CREATE CONSTRAINT TRIGGER "subscriptions_metrics_on_delete" AFTER DELETE ON "subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION "subscriptions_metrics_changed"();
