-- Transactions inserted `completed`.
CREATE OR REPLACE TRIGGER "transactions_revenue_on_insert" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS "completed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_daily_add_rows"();
