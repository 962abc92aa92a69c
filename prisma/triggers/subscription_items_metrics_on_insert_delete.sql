-- Deferred to COMMIT, as the subscriptions' metrics triggers.
DROP TRIGGER IF EXISTS "subscription_items_metrics_on_insert_delete" ON "subscription_items";
CREATE CONSTRAINT TRIGGER "subscription_items_metrics_on_insert_delete" AFTER INSERT OR DELETE
  ON "subscription_items" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION "subscription_items_metrics_changed"();
