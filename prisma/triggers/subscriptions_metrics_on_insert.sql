-- Deferred to COMMIT (still inside the writer's transaction), once the operation has written all
-- of its rows: an item replaced by DELETE + INSERT is one expansion or contraction, not a churn and
-- a new. The WHEN and column lists filter in the executor, so a renewal that changes none of this
-- pays no function call. (CREATE OR REPLACE does not take constraint triggers: dropped and made
-- again, in the migrator's transaction.)
DROP TRIGGER IF EXISTS "subscriptions_metrics_on_insert" ON "subscriptions";
CREATE CONSTRAINT TRIGGER "subscriptions_metrics_on_insert" AFTER INSERT ON "subscriptions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW."status" IN ('active', 'past_due'))
  EXECUTE FUNCTION "subscriptions_metrics_changed"();
