CREATE OR REPLACE TRIGGER transactions_settle_credit AFTER UPDATE OF status ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION transactions_settle_credit();
