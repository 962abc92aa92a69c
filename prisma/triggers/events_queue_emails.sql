-- The customer emails of events, once per statement that wrote events.
CREATE OR REPLACE TRIGGER events_queue_emails AFTER INSERT ON events REFERENCING NEW TABLE AS inserted_events
  FOR EACH STATEMENT EXECUTE FUNCTION queue_event_emails();
