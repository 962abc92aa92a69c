-- CreateTable
CREATE TABLE "emails" (
    "id" TEXT NOT NULL,
    "event_id" TEXT,
    "event_type" TEXT,
    "template" TEXT NOT NULL,
    "notification_setting_id" TEXT,
    "entity_id" TEXT,
    "to_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text_body" TEXT NOT NULL,
    "html_body" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "error" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(6),

    CONSTRAINT "emails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "emails_event_id_template_to_address_key" ON "emails"("event_id", "template", "to_address");

-- CreateIndex
CREATE INDEX "emails_status_id_idx" ON "emails"("status", "id");

-- Written by hand (functions and triggers cannot be declared in schema.prisma).

-- Customer emails and email destinations: the events one statement wrote that someone is emailed
-- about get one `send_event_emails` job each, queued in the writer's transaction (transactional
-- outbox: the email exists exactly when its event committed). The job (lib/services/emails/)
-- decides who is written to and what; this only keeps the queue free of events nobody is emailed
-- about. The event types here are EMAILED_EVENT_TYPES of lib/services/emails/templates.ts.
CREATE FUNCTION emails_wanted(event_type text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT event_type IN ('transaction.billed', 'transaction.completed', 'transaction.payment_failed',
                        'transaction.past_due', 'subscription.trialing', 'subscription.canceled')
      OR EXISTS (SELECT 1 FROM notification_settings s
                  WHERE s.active AND s.type = 'email' AND s.traffic_source IN ('platform', 'all')
                    AND event_type = ANY(s.subscribed_events))
$$;

CREATE FUNCTION queue_event_emails() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER events_queue_emails AFTER INSERT ON events REFERENCING NEW TABLE AS inserted_events
  FOR EACH STATEMENT EXECUTE FUNCTION queue_event_emails();
