-- The `data` of a payload for a destination: the event's entity with its sensitive fields set to
-- null unless the destination includes them. Keys keep their order (json, not jsonb).
CREATE OR REPLACE FUNCTION notification_data(event_type text, data json, include_sensitive boolean) RETURNS json
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
