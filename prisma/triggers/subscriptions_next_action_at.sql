-- Keeps next_action_at derived from the columns it depends on, on every write
-- (functions/subscriptions_next_action_at.sql).
CREATE OR REPLACE TRIGGER subscriptions_next_action_at BEFORE INSERT OR UPDATE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION subscriptions_next_action_at();
