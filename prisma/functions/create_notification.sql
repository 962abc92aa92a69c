-- Creates one notification of an event for a destination and queues its first delivery, in the
-- caller's transaction. Used by the fan-out trigger (origin `event`) and by replays (`replay`).
CREATE OR REPLACE FUNCTION create_notification(setting_id text, event_id text, origin text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  nid text := new_api_id('ntf');
  e events%ROWTYPE;
  s notification_settings%ROWTYPE;
BEGIN
  SELECT * INTO e FROM events WHERE id = event_id;
  SELECT * INTO s FROM notification_settings WHERE id = setting_id;
  IF e.id IS NULL OR s.id IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO notifications (id, notification_setting_id, event_id, type, status, payload, occurred_at, origin, entity_ids)
  VALUES (
    nid, s.id, e.id, e.event_type, 'not_attempted',
    (SELECT row_to_json(r) FROM (SELECT
      e.id AS event_id,
      e.event_type AS event_type,
      to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at,
      nid AS notification_id,
      notification_data(e.event_type, e.data, s.include_sensitive_fields) AS data) r),
    e.occurred_at, origin,
    array_remove(ARRAY[
      e.entity_id,
      CASE WHEN json_typeof(e.data) = 'object' THEN e.data->>'customer_id' END,
      CASE WHEN json_typeof(e.data) = 'object' THEN e.data->>'transaction_id' END,
      CASE WHEN json_typeof(e.data) = 'object' THEN e.data->>'subscription_id' END
    ], NULL)
  );
  PERFORM graphile_worker.add_job('deliver_notification', json_build_object('id', nid, 'attempt', 1), max_attempts := 25);
  RETURN nid;
END $$;
