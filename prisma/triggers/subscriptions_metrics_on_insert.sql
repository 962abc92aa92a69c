-- Deferred to COMMIT (still inside the writer's transaction): see above.
DROP TRIGGER IF EXISTS "subscriptions_metrics_on_insert" ON "subscriptions";
CREATE CONSTRAINT TRIGGER "subscriptions_metrics_on_insert" AFTER INSERT ON "subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."status" IN ('active', 'past_due'))
  EXECUTE FUNCTION "subscriptions_metrics_changed"();
