-- Deferred to COMMIT, as subscriptions_metrics_on_insert; only the columns MRR depends on.
DROP TRIGGER IF EXISTS "subscriptions_metrics_on_update" ON "subscriptions";
CREATE CONSTRAINT TRIGGER "subscriptions_metrics_on_update"
  AFTER UPDATE OF "status", "currency_code", "address_id", "billing_cycle_interval", "billing_cycle_frequency"
  ON "subscriptions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status"
        OR OLD."currency_code" IS DISTINCT FROM NEW."currency_code"
        OR OLD."address_id" IS DISTINCT FROM NEW."address_id"
        OR OLD."billing_cycle_interval" IS DISTINCT FROM NEW."billing_cycle_interval"
        OR OLD."billing_cycle_frequency" IS DISTINCT FROM NEW."billing_cycle_frequency")
  EXECUTE FUNCTION "subscriptions_metrics_changed"();
