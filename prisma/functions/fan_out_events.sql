-- The fan-out of events to notification destinations, set-based: the events one statement wrote
-- become their notifications (one per active destination subscribed to the event's type that takes
-- real, platform, traffic) in one INSERT, and their delivery jobs in one add_jobs call, inside the
-- transaction that wrote the events. Row by row (a trigger call, an INSERT and an add_job with its
-- own NOTIFY per notification), one destination cost ~4 ms of PostgreSQL CPU per renewal, four
-- times the renewal itself. Email destinations get notifications like url destinations;
-- lib/events/delivery.ts delivers one of type `email` by writing its email and sending it through
-- SMTP. Replays go through create_notification, which builds the same payload for one event.
CREATE OR REPLACE FUNCTION fan_out_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  made text[];
BEGIN
  WITH targets AS (
    SELECT row_number() OVER (ORDER BY e.id, s.id) AS n, e.id AS event_id, e.event_type, e.occurred_at, e.entity_id,
           e.data, s.id AS setting_id, s.include_sensitive_fields
      FROM inserted_events e
      JOIN notification_settings s
        ON s.active AND s.type IN ('url', 'email') AND s.traffic_source IN ('platform', 'all')
       AND e.event_type = ANY(s.subscribed_events)
  ), ids AS (
    SELECT row_number() OVER (ORDER BY g.nid) AS n, g.nid FROM (SELECT new_api_id('ntf') AS nid FROM targets) g
  ), created AS (
    INSERT INTO notifications (id, notification_setting_id, event_id, type, status, payload, occurred_at, origin, entity_ids)
    SELECT ids.nid, t.setting_id, t.event_id, t.event_type, 'not_attempted',
      (SELECT row_to_json(r) FROM (SELECT
        t.event_id AS event_id,
        t.event_type AS event_type,
        to_char(t.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at,
        ids.nid AS notification_id,
        notification_data(t.event_type, t.data, t.include_sensitive_fields) AS data) r),
      t.occurred_at, 'event',
      array_remove(ARRAY[
        t.entity_id,
        CASE WHEN json_typeof(t.data) = 'object' THEN t.data->>'customer_id' END,
        CASE WHEN json_typeof(t.data) = 'object' THEN t.data->>'transaction_id' END,
        CASE WHEN json_typeof(t.data) = 'object' THEN t.data->>'subscription_id' END
      ], NULL)
    FROM targets t JOIN ids USING (n)
    ORDER BY t.n
    RETURNING id
  )
  SELECT array_agg(c.id ORDER BY c.id) INTO made FROM created c;
  IF made IS NOT NULL THEN
    PERFORM graphile_worker.add_jobs(ARRAY(
      SELECT ROW('deliver_notification', json_build_object('id', x.id, 'attempt', 1), NULL::text, NULL::timestamptz,
                 25, NULL::text, NULL::integer, NULL::text[])::graphile_worker.job_spec
        FROM unnest(made) WITH ORDINALITY AS x(id, n) ORDER BY x.n));
  END IF;
  RETURN NULL;
END $$;
