-- A transaction created: counted if it is a checkout.
CREATE OR REPLACE TRIGGER "transactions_checkout_metrics_on_insert" AFTER INSERT ON "transactions"
  FOR EACH ROW WHEN (NEW."origin" IN ('api', 'web') AND NEW."collection_mode" = 'automatic')
  EXECUTE FUNCTION "transactions_checkout_metrics"();
