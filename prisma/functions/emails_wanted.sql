-- The event types whose email job is queued (queue_event_emails): customer emails only, since
-- email destinations have notifications (fan_out_events). Their templates are in
-- lib/services/emails/templates.ts.
CREATE OR REPLACE FUNCTION emails_wanted(event_type text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT event_type IN ('transaction.billed', 'transaction.completed', 'transaction.payment_failed',
                        'transaction.past_due', 'subscription.trialing', 'subscription.canceled')
$$;
