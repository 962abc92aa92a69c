-- next_action_at: when the engine next has something to do for the subscription, derived from
-- the columns it depends on by every write (so no write can forget it):
--   a renewal at next_billed_at (active, trialing and past_due subscriptions without a scheduled change),
--   the scheduled change at its effective_at,
--   the next dunning retry or payment-terms check at next_retry_at.
-- Paused subscriptions with a scheduled resume have it as their scheduled change; canceled ones have nothing.
CREATE OR REPLACE FUNCTION subscriptions_next_action_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'canceled' THEN
    NEW.next_action_at := NULL;
  ELSE
    NEW.next_action_at := LEAST(
      CASE WHEN NEW.status IN ('active', 'trialing', 'past_due') AND NEW.scheduled_change IS NULL
           THEN NEW.next_billed_at END,
      (NEW.scheduled_change->>'effective_at')::timestamptz,
      NEW.next_retry_at);
  END IF;
  RETURN NEW;
END $$;
