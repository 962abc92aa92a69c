-- The credit a transaction reserved, used when it completes or released when it is canceled
-- (functions/transactions_settle_credit.sql).
CREATE OR REPLACE TRIGGER transactions_settle_credit AFTER UPDATE OF status ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION transactions_settle_credit();
