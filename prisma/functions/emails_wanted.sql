-- The email job of an event is now for its customer emails only (email destinations have
-- notifications): EMAILED_EVENT_TYPES of lib/services/emails/templates.ts.
CREATE OR REPLACE FUNCTION emails_wanted(event_type text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT event_type IN ('transaction.billed', 'transaction.completed', 'transaction.payment_failed',
                        'transaction.past_due', 'subscription.trialing', 'subscription.canceled')
$$;
