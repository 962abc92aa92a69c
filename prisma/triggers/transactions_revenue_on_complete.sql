-- Two triggers, so that every other write of a transaction (drafts, edits, billing) pays no
-- function call: transactions made `completed` by an UPDATE.
CREATE OR REPLACE TRIGGER "transactions_revenue_on_complete" AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "completed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_daily_add_rows"();
