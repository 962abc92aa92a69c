-- A checkout completing, or a transaction joining or leaving the checkouts.
CREATE OR REPLACE TRIGGER "transactions_checkout_metrics_on_update" AFTER UPDATE OF "status", "collection_mode", "origin"
  ON "transactions" FOR EACH ROW
  WHEN ((OLD."origin" IN ('api', 'web') OR NEW."origin" IN ('api', 'web'))
        AND (OLD."collection_mode" IS DISTINCT FROM NEW."collection_mode"
             OR OLD."origin" IS DISTINCT FROM NEW."origin"
             OR ((NEW."status" = 'completed') IS DISTINCT FROM (OLD."status" = 'completed'))))
  EXECUTE FUNCTION "transactions_checkout_metrics"();
