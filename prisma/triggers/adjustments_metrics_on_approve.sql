-- An adjustment approved, or one leaving `approved`.
CREATE OR REPLACE TRIGGER "adjustments_metrics_on_approve" AFTER UPDATE OF "status" ON "adjustments"
  FOR EACH ROW WHEN (NEW."action" IN ('refund', 'chargeback') AND OLD."status" IS DISTINCT FROM NEW."status"
                     AND (NEW."status" = 'approved' OR OLD."status" = 'approved'))
  EXECUTE FUNCTION "adjustment_metrics_add"();
