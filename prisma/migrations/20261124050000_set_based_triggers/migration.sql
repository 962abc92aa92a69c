-- Written by hand (functions and triggers cannot be declared in schema.prisma).

-- The fan-out of events to notification destinations, set-based: the events one statement wrote
-- become their notifications (one per active destination subscribed to the event's type that takes
-- real, platform, traffic; as before) in one INSERT, and their delivery jobs in one add_jobs call,
-- inside the transaction that wrote the events. The subscription engine writes a batch of renewals'
-- events (hundreds) in one statement: fanned out row by row (a trigger call, an INSERT and an
-- add_job with its own NOTIFY per notification), one destination cost ~4 ms of PostgreSQL CPU per
-- renewal, four times the renewal itself. Replays still go through create_notification, which
-- builds the same payload for one event.
CREATE FUNCTION fan_out_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  made text[];
BEGIN
  WITH targets AS (
    SELECT row_number() OVER (ORDER BY e.id, s.id) AS n, e.id AS event_id, e.event_type, e.occurred_at, e.entity_id,
           e.data, s.id AS setting_id, s.include_sensitive_fields
      FROM inserted_events e
      JOIN notification_settings s
        ON s.active AND s.type = 'url' AND s.traffic_source IN ('platform', 'all')
       AND e.event_type = ANY(s.subscribed_events)
  ), ids AS (
    -- One new ID per notification, handed out in order (event, then destination) so that IDs made
    -- in the same millisecond still sort as the notifications were made, as row by row they did.
    -- (new_api_id is volatile: this CTE is computed once, not inlined.)
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
    -- (The job queue's types are named only here, in a statement: its schema is installed after
    -- these migrations on a new database.)
    PERFORM graphile_worker.add_jobs(ARRAY(
      SELECT ROW('deliver_notification', json_build_object('id', x.id, 'attempt', 1), NULL::text, NULL::timestamptz,
                 25, NULL::text, NULL::integer, NULL::text[])::graphile_worker.job_spec
        FROM unnest(made) WITH ORDINALITY AS x(id, n) ORDER BY x.n));
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER events_fan_out ON events;
DROP FUNCTION fan_out_event();

CREATE TRIGGER events_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS inserted_events
  FOR EACH STATEMENT EXECUTE FUNCTION fan_out_events();

-- The revenue rollup, set-based: the transactions one statement made `completed` are added to
-- their days in one upsert per (day, currency), not one per row. A batch of renewals completes
-- hundreds of transactions of the same day in one UPDATE: row by row, each upsert made another
-- version of the same revenue_daily row inside one database transaction (versions no vacuum can
-- remove yet, each found by walking past the ones before), so the batch's cost grew with its square.
-- What is counted is unchanged (see revenue_daily_add): a transaction on the INSERT or the UPDATE
-- that makes it completed, never again. (Transition tables cannot go with `UPDATE OF status`: the
-- UPDATE trigger compares the old and new rows itself.)
CREATE FUNCTION "revenue_daily_add_rows"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "revenue_daily" AS r ("day", "currency_code", "amount", "count", "updated_at")
    SELECT (coalesce(n."completed_at", now()) AT TIME ZONE 'UTC')::date, n."currency_code",
           sum("transaction_earnings"(n."details")), count(*), clock_timestamp()
      FROM "completed_rows" n
     WHERE n."status" = 'completed'
     GROUP BY 1, 2
     ORDER BY 1, 2
    ON CONFLICT ("day", "currency_code") DO UPDATE
      SET "amount" = r."amount" + EXCLUDED."amount",
          "count" = r."count" + EXCLUDED."count",
          "updated_at" = EXCLUDED."updated_at";
  ELSE
    INSERT INTO "revenue_daily" AS r ("day", "currency_code", "amount", "count", "updated_at")
    SELECT (coalesce(n."completed_at", now()) AT TIME ZONE 'UTC')::date, n."currency_code",
           sum("transaction_earnings"(n."details")), count(*), clock_timestamp()
      FROM "completed_rows" n JOIN "previous_rows" o ON o."id" = n."id"
     WHERE n."status" = 'completed' AND o."status" IS DISTINCT FROM 'completed'
     GROUP BY 1, 2
     ORDER BY 1, 2
    ON CONFLICT ("day", "currency_code") DO UPDATE
      SET "amount" = r."amount" + EXCLUDED."amount",
          "count" = r."count" + EXCLUDED."count",
          "updated_at" = EXCLUDED."updated_at";
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER "transactions_revenue_on_insert" ON "transactions";
DROP TRIGGER "transactions_revenue_on_complete" ON "transactions";
DROP FUNCTION "revenue_daily_add"();

CREATE TRIGGER "transactions_revenue_on_insert" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS "completed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_daily_add_rows"();

CREATE TRIGGER "transactions_revenue_on_complete" AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "completed_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "revenue_daily_add_rows"();
