-- Customer emails: the events one statement wrote that someone is emailed about (emails_wanted)
-- get one `send_event_emails` job each, queued in the writer's transaction (transactional outbox:
-- the email exists exactly when its event committed). The job (lib/services/emails/) decides who
-- is written to and what; this only keeps the queue free of events nobody is emailed about.
CREATE OR REPLACE FUNCTION queue_event_emails() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted_events e WHERE emails_wanted(e.event_type)) THEN
    -- (The job queue's types are named only in a statement: its schema is installed after these
    -- migrations on a new database.)
    PERFORM graphile_worker.add_jobs(ARRAY(
      SELECT ROW('send_event_emails', json_build_object('event_id', e.id), NULL::text, NULL::timestamptz,
                 25, NULL::text, NULL::integer, NULL::text[])::graphile_worker.job_spec
        FROM inserted_events e WHERE emails_wanted(e.event_type) ORDER BY e.id));
  END IF;
  RETURN NULL;
END $$;
