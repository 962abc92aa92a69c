-- Deferred to COMMIT, as the subscriptions' metrics triggers; only the columns MRR depends on.
DROP TRIGGER IF EXISTS "subscription_items_metrics_on_update" ON "subscription_items";
CREATE CONSTRAINT TRIGGER "subscription_items_metrics_on_update"
  AFTER UPDATE OF "quantity", "price", "recurring", "subscription_id"
  ON "subscription_items" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."quantity" IS DISTINCT FROM NEW."quantity"
        OR OLD."price"::text IS DISTINCT FROM NEW."price"::text
        OR OLD."recurring" IS DISTINCT FROM NEW."recurring"
        OR OLD."subscription_id" IS DISTINCT FROM NEW."subscription_id")
  EXECUTE FUNCTION "subscription_items_metrics_changed"();
