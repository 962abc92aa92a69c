-- An adjustment created approved.
CREATE OR REPLACE TRIGGER "adjustments_metrics_on_insert" AFTER INSERT ON "adjustments"
  FOR EACH ROW WHEN (NEW."status" = 'approved' AND NEW."action" IN ('refund', 'chargeback'))
  EXECUTE FUNCTION "adjustment_metrics_add"();
