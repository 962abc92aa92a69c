-- The fan-out of events to notification destinations, once per statement that wrote events.
CREATE OR REPLACE TRIGGER events_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS inserted_events
  FOR EACH STATEMENT EXECUTE FUNCTION fan_out_events();
