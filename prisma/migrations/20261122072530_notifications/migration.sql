-- CreateTable
CREATE TABLE "notification_settings" (
    "id" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'url',
    "destination" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "api_version" INTEGER NOT NULL DEFAULT 1,
    "include_sensitive_fields" BOOLEAN NOT NULL DEFAULT false,
    "subscribed_events" TEXT[],
    "endpoint_secret_key" TEXT NOT NULL,
    "traffic_source" TEXT NOT NULL DEFAULT 'platform',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" TEXT NOT NULL,
    "notification_setting_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'not_attempted',
    "payload" JSON NOT NULL,
    "occurred_at" TIMESTAMPTZ(6) NOT NULL,
    "delivered_at" TIMESTAMPTZ(6),
    "replayed_at" TIMESTAMPTZ(6),
    "origin" TEXT NOT NULL DEFAULT 'event',
    "last_attempt_at" TIMESTAMPTZ(6),
    "retry_at" TIMESTAMPTZ(6),
    "times_attempted" INTEGER NOT NULL DEFAULT 0,
    "entity_ids" TEXT[],
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification_logs" (
    "id" TEXT NOT NULL,
    "notification_id" TEXT NOT NULL,
    "response_code" INTEGER,
    "response_content_type" TEXT,
    "response_body" TEXT,
    "duration_ms" INTEGER NOT NULL,
    "error" TEXT,
    "attempted_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "notification_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulations" (
    "id" TEXT NOT NULL,
    "notification_setting_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "payload" JSON,
    "config" JSON,
    "last_run_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "simulations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulation_runs" (
    "id" TEXT NOT NULL,
    "simulation_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "simulation_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "simulation_events" (
    "id" TEXT NOT NULL,
    "simulation_run_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "event_type" TEXT NOT NULL,
    "payload" JSON NOT NULL,
    "request" JSON,
    "response" JSON,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "simulation_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "worker_heartbeats" (
    "id" TEXT NOT NULL,
    "last_seen_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "worker_heartbeats_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_settings_active_id_idx" ON "notification_settings"("active", "id");

-- CreateIndex
CREATE INDEX "notifications_notification_setting_id_id_idx" ON "notifications"("notification_setting_id", "id");

-- CreateIndex
CREATE INDEX "notifications_status_id_idx" ON "notifications"("status", "id");

-- CreateIndex
CREATE INDEX "notifications_event_id_idx" ON "notifications"("event_id");

-- CreateIndex
CREATE INDEX "notifications_created_at_idx" ON "notifications"("created_at");

-- CreateIndex
CREATE INDEX "notifications_entity_ids_idx" ON "notifications" USING GIN ("entity_ids");

-- CreateIndex
CREATE INDEX "notification_logs_notification_id_id_idx" ON "notification_logs"("notification_id", "id");

-- CreateIndex
CREATE INDEX "simulations_notification_setting_id_id_idx" ON "simulations"("notification_setting_id", "id");

-- CreateIndex
CREATE INDEX "simulations_status_id_idx" ON "simulations"("status", "id");

-- CreateIndex
CREATE INDEX "simulation_runs_simulation_id_id_idx" ON "simulation_runs"("simulation_id", "id");

-- CreateIndex
CREATE INDEX "simulation_events_simulation_run_id_id_idx" ON "simulation_events"("simulation_run_id", "id");

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_notification_setting_id_fkey" FOREIGN KEY ("notification_setting_id") REFERENCES "notification_settings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_logs" ADD CONSTRAINT "notification_logs_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "simulations" ADD CONSTRAINT "simulations_notification_setting_id_fkey" FOREIGN KEY ("notification_setting_id") REFERENCES "notification_settings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_simulation_id_fkey" FOREIGN KEY ("simulation_id") REFERENCES "simulations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "simulation_events" ADD CONSTRAINT "simulation_events_simulation_run_id_fkey" FOREIGN KEY ("simulation_run_id") REFERENCES "simulation_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand (functions and triggers cannot be declared in schema.prisma).

-- An API ID in SQL, the same shape as lib/ids.ts: prefix, 10 characters of millisecond time and
-- 16 random characters, Crockford base32 in lower case.
CREATE FUNCTION new_api_id(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  t bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  out text := '';
  r bytea := decode(replace(gen_random_uuid()::text, '-', ''), 'hex');
BEGIN
  FOR i IN 1..10 LOOP
    out := substr(alphabet, (t % 32)::int + 1, 1) || out;
    t := t / 32;
  END LOOP;
  FOR i IN 0..15 LOOP
    out := out || substr(alphabet, (get_byte(r, i) % 32) + 1, 1);
  END LOOP;
  RETURN prefix || '_' || out;
END $$;

-- Top-level fields of an entity that are sent to a destination only when it asks for
-- `include_sensitive_fields`: payment details, authenticated portal links and tax identifiers.
CREATE FUNCTION sensitive_fields(event_type text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE split_part(event_type, '.', 1)
    WHEN 'transaction' THEN ARRAY['payments', 'checkout']
    WHEN 'subscription' THEN ARRAY['management_urls']
    WHEN 'business' THEN ARRAY['tax_identifier']
    WHEN 'adjustment' THEN ARRAY['payout_totals']
    ELSE ARRAY[]::text[]
  END
$$;

-- The `data` of a payload for a destination: the event's entity with its sensitive fields set to
-- null unless the destination includes them. Keys keep their order (json, not jsonb).
CREATE FUNCTION notification_data(event_type text, data json, include_sensitive boolean) RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN include_sensitive OR json_typeof(data) <> 'object' OR cardinality(sensitive_fields(event_type)) = 0 THEN data
    -- Built as text (json_object_agg would write "key" : value with spaces), in the keys' order.
    ELSE (SELECT coalesce('{' || string_agg(
                   to_json(f.key)::text || ':' ||
                   CASE WHEN f.key = ANY(sensitive_fields(event_type)) THEN 'null' ELSE f.value::text END,
                   ',' ORDER BY f.n) || '}', '{}')::json
          FROM json_each(data) WITH ORDINALITY AS f(key, value, n))
  END
$$;

-- Creates one notification of an event for a destination and queues its first delivery, in the
-- caller's transaction. Used by the fan-out trigger (origin `event`) and by replays (`replay`).
CREATE FUNCTION create_notification(setting_id text, event_id text, origin text) RETURNS text
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

-- The fan-out: each committed event becomes one notification per active destination subscribed to
-- its type that takes real (platform) traffic. Runs inside the transaction that wrote the event.
CREATE FUNCTION fan_out_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  setting_id text;
BEGIN
  FOR setting_id IN
    SELECT id FROM notification_settings
    WHERE active AND type = 'url' AND traffic_source IN ('platform', 'all') AND NEW.event_type = ANY(subscribed_events)
    ORDER BY id
  LOOP
    PERFORM create_notification(setting_id, NEW.id, 'event');
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER events_fan_out AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION fan_out_event();
